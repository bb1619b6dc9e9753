/**
 * Runs speech estimates off the main thread, several at once: a small pool of worker threads
 * (main/audio/speech-worker.ts), one per core up to the number of jobs, each taking the next file as it
 * finishes one. Where worker threads cannot start (a bundle without the worker's file), the jobs run
 * in this thread instead, one after the other, with the same results.
 */
import { availableParallelism } from 'node:os';
import { startWorkerBeside } from '../worker-thread';
import { knownFileSpeech, measureFileSpeech, type FileSpeech, type SpeechJob } from './file-speech';

export type SpeechOutcome = { ok: true; value: FileSpeech } | { ok: false; error: string };

const startWorker = () => startWorkerBeside(import.meta.url, 'speech-worker');

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
    const known = await knownFileSpeech(job);
    if (known) finish(i, { ok: true, value: known });
    else todo.push(i);
  }
  const n =
    todo.length === 0 ? 0 : Math.max(1, Math.min(o.concurrency ?? availableParallelism(), todo.length));
  const inProcess = async () => {
    while (next < todo.length && !o.signal?.aborted) {
      const i = todo[next++]!;
      try {
        finish(i, { ok: true, value: await measureFileSpeech(jobs[i]!) });
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
            finish(i, { ok: true, value: await measureFileSpeech(jobs[i]!) });
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
