/**
 * A worker thread of the measurement pool (pool.ts): measures one recording (any format the decoders open) per message and answers with
 * the result (with the pitch track in 32-bit floats when asked, else without it) or the problem. Runs under whatever loader started the parent
 * (tsx in development and in the `voicescope` command), which worker threads inherit.
 */
import { parentPort } from 'node:worker_threads';

import type { PitchSettings } from '../../shared/acoustics/pitch-settings';
import { assessFile, measureFile } from './measure';
import { compactTrack } from './pitch-track';

export interface WorkerRequest {
  readonly id: number;
  readonly path: string;
  readonly settings: PitchSettings;
  /** The quality control alone (assessFile), not the measures. */
  readonly qualityOnly?: boolean;
  /** Send the F0 track too (pitch-track.ts), for storing beside the measures. */
  readonly withPitchTrack?: boolean;
}

parentPort?.on('message', (req: WorkerRequest) => {
  if (req.qualityOnly) {
    void assessFile(req.path).then(
      (result) => parentPort?.postMessage({ id: req.id, result }),
      (e: unknown) =>
        parentPort?.postMessage({
          id: req.id,
          result: { ok: false, error: { code: 'unreadable', detail: `The check failed: ${String(e)}` } },
        }),
    );
    return;
  }
  void measureFile(req.path, req.settings).then(
    (r) => {
      if (!r.ok) parentPort?.postMessage({ id: req.id, result: r });
      else {
        const { pitchTrack, ...rest } = r.value;
        const value = req.withPitchTrack ? { ...rest, pitchTrack: compactTrack(pitchTrack) } : rest;
        parentPort?.postMessage({ id: req.id, result: { ok: true, value } });
      }
    },
    (e: unknown) =>
      parentPort?.postMessage({
        id: req.id,
        result: { ok: false, error: { code: 'unreadable', detail: `The measurement failed: ${String(e)}` } },
      }),
  );
});
