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

export interface PoolOptions {
  readonly threads?: number;
  /** Return each file's F0 track too (the study's measures keep it for the spectrogram). */
  readonly withPitchTrack?: boolean;
  /** Called as each file finishes (in finishing order). */
  readonly onResult?: (index: number, result: PooledResult) => void;
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
    readonly onResult?: (index: number, result: PooledQuality) => void;
  } = {},
): Promise<PooledQuality[]> =>
  runPool<PooledQuality>(paths, DEFAULT_PITCH_SETTINGS, { qualityOnly: true }, options);

const runPool = async <R>(
  paths: readonly string[],
  settings: PitchSettings,
  asked: Pick<WorkerRequest, 'qualityOnly' | 'withPitchTrack'>,
  options: { readonly threads?: number; readonly onResult?: (index: number, result: R) => void },
): Promise<R[]> => {
  const results = new Array<R>(paths.length);
  const threads = Math.max(1, Math.min(options.threads ?? Math.min(2, availableParallelism()), paths.length));
  let next = 0;
  const runWorker = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = startWorker();
      const send = (): void => {
        if (next >= paths.length) {
          void worker.terminate().then(() => resolve());
          return;
        }
        const id = next++;
        worker.postMessage({ id, path: paths[id]!, settings, ...asked } satisfies WorkerRequest);
      };
      worker.on('message', (m: { id: number; result: R }) => {
        results[m.id] = m.result;
        options.onResult?.(m.id, m.result);
        send();
      });
      worker.on('error', reject);
      send();
    });
  await Promise.all(Array.from({ length: threads }, runWorker));
  return results;
};
