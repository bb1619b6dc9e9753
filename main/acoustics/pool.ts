/**
 * Measures many files in parallel on worker threads (measure-worker.ts), at most `threads` at a time
 * (default: two, or fewer cores). Results come back in the order of `paths`, each a Result: a file that
 * cannot be read or decoded is a problem value, never an exception.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';

import { DEFAULT_PITCH_SETTINGS, type PitchSettings } from '../../shared/acoustics/pitch-settings';
import type { Result } from '../../shared/result';
import { type AcousticResult, type MeasureFileProblem } from './measure';
import type { PitchTrack } from './pitch-track';
import type { QualityReport } from './quality';
import type { WorkerRequest } from './measure-worker';
import { startWorkerBeside } from '../worker-thread';

/** A file's measures; with its F0 track (32-bit floats) when `withPitchTrack` was asked. */
export type PooledResult = Result<
  Omit<AcousticResult, 'pitchTrack'> & { readonly pitchTrack?: PitchTrack },
  MeasureFileProblem
>;

export type OnResult<R> = (index: number, result: R) => void | Promise<void>;

export interface PoolOptions {
  readonly threads?: number;
  /** Return each file's F0 track too (the study's measures keep it for the spectrogram). */
  readonly withPitchTrack?: boolean;
  /**
   * Called once as each file finishes (in finishing order). When it returns a promise (a result being
   * stored), the pool waits for it before it resolves, and fails (sending no more files) when it rejects.
   */
  readonly onResult?: OnResult<PooledResult>;
}

/** A worker on measure-worker (its source, or its bundle beside the Electron app's main.cjs). */
const startWorker = (): Worker => {
  const worker = startWorkerBeside(import.meta.url, 'measure-worker');
  if (worker === null) throw new Error('The acoustic measures could not start their worker thread.');
  return worker;
};

export const measureFiles = (
  paths: readonly string[],
  settings: PitchSettings,
  options: PoolOptions = {},
): Promise<PooledResult[]> =>
  runPool<PooledResult>(paths, settings, { withPitchTrack: options.withPitchTrack ?? false }, options);

export type PooledQuality = Result<QualityReport, MeasureFileProblem>;

/** The quality control alone of many files (the import preview), on the same worker threads. */
export const assessFiles = (
  paths: readonly string[],
  options: {
    readonly threads?: number;
    readonly onResult?: OnResult<PooledQuality>;
  } = {},
): Promise<PooledQuality[]> =>
  runPool<PooledQuality>(paths, DEFAULT_PITCH_SETTINGS, { qualityOnly: true }, options);

const runPool = async <R>(
  paths: readonly string[],
  settings: PitchSettings,
  asked: Pick<WorkerRequest, 'qualityOnly' | 'withPitchTrack'>,
  options: { readonly threads?: number; readonly onResult?: OnResult<R> },
): Promise<R[]> => {
  const results = new Array<R>(paths.length);
  const threads = Math.max(1, Math.min(options.threads ?? Math.min(2, availableParallelism()), paths.length));
  let next = 0;
  let failed = false;
  const runWorker = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = startWorker();
      // The worker's results handed to `onResult`, one after another; the worker measures the next
      // file meanwhile.
      let handled: Promise<void> = Promise.resolve();
      const fail = (e: unknown): void => {
        failed = true;
        void worker.terminate();
        reject(e);
      };
      const send = (): void => {
        if (failed) return;
        if (next >= paths.length) {
          void worker
            .terminate()
            .then(() => handled)
            .then(() => resolve(), fail);
          return;
        }
        const id = next++;
        worker.postMessage({ id, path: paths[id]!, settings, ...asked } satisfies WorkerRequest);
      };
      worker.on('message', (m: { id: number; result: R }) => {
        results[m.id] = m.result;
        handled = handled.then(() => options.onResult?.(m.id, m.result));
        handled.catch(fail);
        send();
      });
      worker.on('error', fail);
      send();
    });
  await Promise.all(Array.from({ length: threads }, runWorker));
  return results;
};
