/**
 * The speech estimate's worker thread: decodes a recording (any format the decoders open) a chunk at a time (memory
 * stays bounded whatever the file's size) and runs the Silero estimate (main/audio/silero-speech.ts)
 * on the channels asked for. Started by main/audio/speech-pool.ts; one job at a time.
 */
import { parentPort } from 'node:worker_threads';
import { measureFileSpeech, type SpeechJob } from './file-speech';

parentPort?.on('message', (job: SpeechJob & { id: number }) => {
  measureFileSpeech(job).then(
    (result) => parentPort!.postMessage({ id: job.id, result }),
    (e: unknown) =>
      parentPort!.postMessage({ id: job.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
