/**
 * Runs speech estimates off the main thread, several at once: a small pool of worker threads
 * (main/audio/speech-worker.ts), one per core up to the number of jobs, each taking the next file as it
 * finishes one. Where worker threads cannot start (a bundle without the worker's file), the jobs run
 * in this thread instead, one after the other, with the same results.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { knownWavFileSpeech, measureWavFileSpeech, type FileSpeech, type SpeechJob } from './wav-file-speech';

export type SpeechOutcome = { ok: true; value: FileSpeech } | { ok: false; error: string };

const require = createRequire(import.meta.url);

/**
 * The worker's module: the TypeScript source beside this file, or in the Electron bundle the worker's own
 * bundle beside main.cjs (scripts/build.mjs); null when neither is there.
 */
const workerModuleUrl = (): string | null => {
  for (const name of ['./speech-worker.ts', './speech-worker.cjs']) {
    const url = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  return null;
};

/** Starts a worker on the worker's module (registering tsx first when the sources are not compiled). */
const startWorker = (): Worker | null => {
  let url: string | null;
  let tsxApi: string | null = null;
  try {
    url = workerModuleUrl();
    if (url === null) return null;
    if (url.endsWith('.ts'))
      tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  } catch {
    return null;
  }
  const bootstrap = `
    const { workerData } = require('node:worker_threads');
    (async () => {
      if (workerData.tsxApi) (await import(workerData.tsxApi)).register();
      await import(workerData.url);
    })();`;
  try {
    const w = new Worker(bootstrap, { eval: true, workerData: { url, tsxApi } });
    return w;
  } catch {
    return null;
  }
};

export interface PoolOptions {
  readonly concurrency?: number;
  readonly onProgress?: (done: number, total: number) => void;
  readonly signal?: AbortSignal;
}

/** Measures every job; the outcomes are in the order of the jobs. */
export const measureSpeechInParallel = async (
  jobs: readonly SpeechJob[],
  o: PoolOptions = {},
): Promise<SpeechOutcome[]> => {
  const out = new Array<SpeechOutcome>(jobs.length);
  let next = 0;
  let done = 0;
  const finish = (i: number, r: SpeechOutcome) => {
    out[i] = r;
    o.onProgress?.(++done, jobs.length);
  };
  // Files measured before (speech-cache.ts, set only by the tests) start no worker.
  const todo: number[] = [];
  for (const [i, job] of jobs.entries()) {
    const known = await knownWavFileSpeech(job);
    if (known) finish(i, { ok: true, value: known });
    else todo.push(i);
  }
  const n =
    todo.length === 0 ? 0 : Math.max(1, Math.min(o.concurrency ?? availableParallelism(), todo.length));
  const inProcess = async () => {
    while (next < todo.length && !o.signal?.aborted) {
      const i = todo[next++]!;
      try {
        finish(i, { ok: true, value: await measureWavFileSpeech(jobs[i]!) });
      } catch (e) {
        finish(i, { ok: false, error: e instanceof Error ? e.message : String(e) });
      }
    }
  };
  const lane = async (): Promise<void> => {
    const w = startWorker();
    if (!w) return inProcess();
    try {
      while (next < todo.length && !o.signal?.aborted) {
        const i = todo[next++]!;
        const r = await new Promise<SpeechOutcome | null>((resolve) => {
          const onMessage = (m: { id: number; result?: FileSpeech; error?: string }) => {
            if (m.id !== i) return;
            cleanup();
            resolve(
              m.result ? { ok: true, value: m.result } : { ok: false, error: m.error ?? 'unknown error' },
            );
          };
          // A worker that stops without answering (it could not load): this lane goes on in-process.
          const onGone = () => {
            cleanup();
            resolve(null);
          };
          const cleanup = () => {
            w.off('message', onMessage);
            w.off('error', onGone);
            w.off('exit', onGone);
          };
          w.on('message', onMessage);
          w.on('error', onGone);
          w.on('exit', onGone);
          w.postMessage({ ...jobs[i]!, id: i });
        });
        if (r === null) {
          try {
            finish(i, { ok: true, value: await measureWavFileSpeech(jobs[i]!) });
          } catch (e) {
            finish(i, { ok: false, error: e instanceof Error ? e.message : String(e) });
          }
          return await inProcess();
        }
        finish(i, r);
      }
    } finally {
      await w.terminate();
    }
  };
  await Promise.all(Array.from({ length: n }, lane));
  if (o.signal?.aborted) throw new Error('Measuring speech was cancelled.');
  return out;
};
