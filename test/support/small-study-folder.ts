/**
 * A small study folder for the import and batch screens: a dozen good WAVs of four participants named
 * `P0n_<session>_<YYYYMMDD>.wav` (so a file-name pattern works as well as the manifest), one stereo
 * 44.1 kHz WAV (refused unless conversion is on), one with too little speech, one "WAV" that is text,
 * a copy of a good file (a duplicate), a notes file the importer leaves out, and a manifest that also
 * names a file that does not exist (one manifest error). Returns what a correct preview makes of it.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWav } from '../fixtures/audio';

export interface SmallStudyFolder {
  readonly dir: string;
  readonly manifestPath: string;
  /** Preview counts with conversion off and on. */
  readonly expected: {
    readonly off: {
      upload: number;
      convert_and_upload: number;
      refused: number;
      borderline: number;
      duplicate: number;
      unassigned: number;
    };
    readonly on: {
      upload: number;
      convert_and_upload: number;
      refused: number;
      borderline: number;
      duplicate: number;
      unassigned: number;
    };
  };
  readonly participants: readonly string[];
  readonly files: {
    readonly stereo: string;
    readonly short: string;
    readonly text: string;
    readonly copy: string;
    readonly original: string;
  };
  /** The manifest's line that names a missing file. */
  readonly missingLine: number;
  readonly pattern: string;
}

export const SMALL_PARTICIPANTS = ['P01', 'P02', 'P03', 'P04'] as const;

/**
 * `seed` moves every file's audio (default 0): two studies of one workspace given folders with different
 * seeds share no audio, so neither is held as a duplicate of the other.
 */
export const makeSmallStudyFolder = (
  root: string,
  opts: { good?: number; seed?: number } = {},
): SmallStudyFolder => {
  const good = opts.good ?? 10;
  const shift = opts.seed ?? 0;
  const dir = join(root, 'study-recordings');
  mkdirSync(dir, { recursive: true });
  const rows = ['file,participant,recorded_at,session'];
  const name = (code: string, session: string, day: number) =>
    `${code}_${session}_202603${String(day).padStart(2, '0')}.wav`;
  const add = (file: string, bytes: Uint8Array, code: string, session: string, day: number) => {
    writeFileSync(join(dir, file), bytes);
    rows.push(
      `${file},${code},2026-03-${String(day).padStart(2, '0')} ${String(9 + (day % 8)).padStart(2, '0')}:30,${session}`,
    );
  };
  let original = '';
  for (let i = 0; i < good; i++) {
    const code = SMALL_PARTICIPANTS[i % SMALL_PARTICIPANTS.length]!;
    const session = `w${1 + Math.floor(i / SMALL_PARTICIPANTS.length)}`;
    const file = name(code, session, 1 + i);
    add(
      file,
      makeWav({ seconds: 42, speechSeconds: 36 + (i % 3), seed: 300 + shift + i }),
      code,
      session,
      1 + i,
    );
    if (i === 0) original = file;
  }
  const stereo = name('P02', 'stereo', 20);
  add(
    stereo,
    makeWav({ seconds: 42, speechSeconds: 36, seed: 400 + shift, channels: 2, sampleRateHz: 44_100 }),
    'P02',
    'stereo',
    20,
  );
  const short = name('P03', 'short', 21);
  add(short, makeWav({ seconds: 30, speechSeconds: 12, seed: 401 + shift }), 'P03', 'short', 21);
  const text = name('P04', 'text', 22);
  add(text, new TextEncoder().encode('these are field notes, not audio\n'.repeat(40)), 'P04', 'text', 22);
  // Sorts after the original (the first in path order is kept), as a copy filed under a later session.
  const copy = name('P01', 'w9', 23);
  copyFileSync(join(dir, original), join(dir, copy));
  rows.push(`${copy},P01,2026-03-23 10:00,w9`);
  writeFileSync(join(dir, 'notes.txt'), 'Recorder: Zoom H1n; room 2.14\n');
  rows.push('P09_w1_20260324.wav,P09,2026-03-24 10:00,w1');
  const missingLine = rows.length;
  const manifestPath = join(dir, 'manifest.csv');
  writeFileSync(manifestPath, rows.join('\n') + '\n');
  return {
    dir,
    manifestPath,
    expected: {
      off: { upload: good, convert_and_upload: 0, refused: 3, borderline: 0, duplicate: 1, unassigned: 0 },
      on: { upload: good, convert_and_upload: 1, refused: 2, borderline: 0, duplicate: 1, unassigned: 0 },
    },
    participants: SMALL_PARTICIPANTS,
    files: { stereo, short, text, copy, original },
    missingLine,
    pattern: '{participant}_{session}_{date:YYYYMMDD}.wav',
  };
};
