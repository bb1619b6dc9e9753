/**
 * A file of an import plan as the import commit writes it (main/db/repos/imports.repo.ts): a mono
 * 16 kHz WAV of 40 s with 35 s of speech, numbered `i` (its path, content, size and session follow
 * from the number), for tests that write recordings through the import's own statement.
 */
import type { NewRecording } from '../../main/db/repos/imports.repo';

export const plannedFile = (i: number, code: string, over: Partial<NewRecording> = {}): NewRecording => ({
  participantCode: code,
  sourcePath: `/in/f${i}.wav`,
  uploadPath: null,
  sha256: String(i).padStart(64, '0'),
  sizeBytes: 1000 + i,
  format: 'wav',
  channels: 1,
  sampleRateHz: 16000,
  durationSeconds: 40,
  speechSeconds: 35,
  recordedAt: '2026-01-05T10:00:00.000Z',
  recordedAtSource: 'manifest',
  session: `s${i}`,
  state: 'pending',
  error: null,
  verdict: '{}',
  duplicateOf: null,
  duplicateOverride: false,
  ...over,
});
