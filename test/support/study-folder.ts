/**
 * A generated study folder as researchers bring them: WAVs in several encodings, MP3/OGG/MP4, stereo
 * files that need conversion, too-short and non-audio files, copies of the same audio, and a manifest
 * with errors. Returns what a correct import must make of it.
 *
 * The MP3 and Ogg files are speech-like recordings encoded by Debian's ffmpeg (a test tool,
 * scripts/test-tools.mjs), because the sandbox decodes them and counts their speech; the M4A files
 * hold AAC, which the product does not decode, so their payload may be zeros.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWav, type WavFormat } from '../fixtures/audio';
import { makeMp4 } from '../fixtures/compressed-audio';
import { ffmpeg } from './ffmpeg';

/** Speech-like audio (`seconds` long, `speechSeconds` of it speech) encoded by ffmpeg as MP3 or Ogg Opus. */
const encodedSpeech = (
  opts: { seconds: number; speechSeconds: number; seed: number },
  format: 'mp3' | 'ogg',
): Uint8Array => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-study-encode-'));
  try {
    const out = join(dir, `speech.${format}`);
    const codec =
      format === 'mp3'
        ? ['-c:a', 'libmp3lame', '-b:a', '64k']
        : ['-c:a', 'libopus', '-b:a', '64k', '-vbr', 'off'];
    ffmpeg(['-i', 'pipe:0', ...codec, out], makeWav({ ...opts, sampleRateHz: 16_000 }));
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export interface StudyFolder {
  readonly dir: string;
  readonly manifestPath: string;
  readonly expected: {
    upload: number;
    convert_and_upload: number;
    refused: number;
    duplicate: number;
    borderline: number;
    unassigned: number;
  };
  /** Manifest rows that must be reported as errors. */
  readonly manifestErrorRows: number;
  readonly participants: number;
}

const WAV_KINDS: readonly WavFormat[] = [
  'pcm16',
  'pcm24',
  'pcm32',
  'float32',
  'extensible-pcm16',
  'extensible-float32',
];

export const makeStudyFolder = (
  root: string,
  opts: { good?: number; participants?: number } = {},
): StudyFolder => {
  const good = opts.good ?? 150;
  const participants = opts.participants ?? 20;
  const dir = join(root, 'recordings');
  mkdirSync(join(dir, 'week-a'), { recursive: true });
  mkdirSync(join(dir, 'week-b'), { recursive: true });
  const rows: string[] = ['file,participant,recorded_at,session'];
  const code = (i: number) => `P-${String(i % participants).padStart(3, '0')}`;
  let n = 0;
  const add = (bytes: Uint8Array, ext: string, participant: string, extra = '') => {
    const i = n++;
    const rel = `${i % 2 ? 'week-a' : 'week-b'}/rec-${String(i).padStart(4, '0')}${extra}.${ext}`;
    writeFileSync(join(dir, rel), bytes);
    const day = 1 + (i % 28);
    rows.push(
      `recordings/${rel},${participant},2026-02-${String(day).padStart(2, '0')} ${String(8 + (i % 10)).padStart(2, '0')}:00,week ${1 + (i % 12)}`,
    );
    return rel;
  };
  const expected = {
    upload: 0,
    convert_and_upload: 0,
    refused: 0,
    borderline: 0,
    duplicate: 0,
    unassigned: 0,
  };
  const dupSources: { rel: string; participant: string }[] = [];
  for (let i = 0; i < good; i++) {
    const rel = add(
      makeWav({
        seconds: 44 + (i % 5),
        speechSeconds: 35 + (i % 4) * 0.5,
        seed: 1000 + i,
        format: WAV_KINDS[i % WAV_KINDS.length]!,
      }),
      'wav',
      code(i),
    );
    if (i < 6) dupSources.push({ rel, participant: code(i) });
    expected.upload++;
  }
  for (let i = 0; i < 10; i++) {
    add(encodedSpeech({ seconds: 40 + i, speechSeconds: 36, seed: 3000 + i }, 'mp3'), 'mp3', code(i));
    expected.upload++;
  }
  for (let i = 0; i < 5; i++) {
    add(encodedSpeech({ seconds: 41 + i, speechSeconds: 36, seed: 4000 + i }, 'ogg'), 'ogg', code(i + 3));
    expected.upload++;
  }
  for (let i = 0; i < 5; i++) {
    add(makeMp4({ seconds: 42 + i }), 'm4a', code(i + 5));
    expected.upload++;
  }
  for (let i = 0; i < 12; i++) {
    add(
      makeWav({
        seconds: 45,
        speechSeconds: 36,
        seed: 5000 + i,
        channels: 2,
        sampleRateHz: i % 2 ? 44_100 : 16_000,
      }),
      'wav',
      code(i),
      '-stereo',
    );
    expected.convert_and_upload++;
  }
  for (let i = 0; i < 8; i++) {
    add(makeWav({ seconds: 30, speechSeconds: 12, seed: 7000 + i }), 'wav', code(i), '-short');
    expected.refused++;
  }
  for (let i = 0; i < 4; i++) {
    add(new TextEncoder().encode(`not audio ${i}\n`.repeat(50)), 'wav', code(i), '-text');
    expected.refused++;
  }
  for (const [i, d] of dupSources.entries()) {
    const rel = `week-b/copy-${i}.wav`;
    copyFileSync(join(dir, d.rel), join(dir, rel));
    rows.push(`recordings/${rel},${d.participant},2026-03-01T09:00:00Z,week 13`);
    expected.duplicate++;
  }
  // Manifest errors: files that do not exist, unreadable dates, a row without participant.
  rows.push(
    'recordings/week-a/gone-1.wav,P-001,2026-02-02,week 2',
    'recordings/week-a/gone-2.wav,P-002,2026-02-02,week 2',
    'recordings/week-a/gone-3.wav,P-003,2026-02-02,week 2',
  );
  const badDate = add(makeWav({ seconds: 45, speechSeconds: 36, seed: 9001 }), 'wav', 'P-004');
  rows[rows.length - 1] = `recordings/${badDate},P-004,31/02/2026,week 3`;
  const noParticipant = add(makeWav({ seconds: 45, speechSeconds: 36, seed: 9002 }), 'wav', 'P-005');
  rows[rows.length - 1] = `recordings/${noParticipant},,2026-02-03,week 3`;
  // Both are in the folder but their rows are errors: they stay unassigned (no pattern is set).
  expected.unassigned += 2;
  const manifestPath = join(root, 'manifest.csv');
  writeFileSync(manifestPath, rows.join('\r\n') + '\r\n');
  return { dir, manifestPath, expected, manifestErrorRows: 5, participants };
};
