/**
 * The speech estimate and the local acoustic measures of a recording in every decodable format,
 * against the same measures of its WAV original. Real speech is encoded with Debian's ffmpeg into
 * FLAC, AIFF, CAF, MP3 (64 kbps), Ogg Vorbis (64 kbps), Ogg Opus (64 kbps), WebM Opus (64 kbps,
 * 48 kHz as browsers record) and 8 kHz µ-law WAV (a telephone recording, whose original is the
 * same speech as 8 kHz 16-bit PCM: G.711 keeps 8 kHz, so the 16 kHz original is not its original).
 *
 *   npx tsx scripts/validation/decoded-formats.ts [<speech.wav>]
 *
 * Default speech: the AMI meeting clip of the speech corpus ($VOICESCOPE_CORPUS/pyannote/sample.wav,
 * 30 s, 16 kHz). Prints one row per format: the speech estimate of the file and of its original, and
 * each measure's difference (relative where the acoustic validation's target is relative).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureFile } from '../../main/acoustics/measure';
import type { Measures } from '../../main/acoustics/measures';
import { measureFileSpeech } from '../../main/audio/file-speech';

export interface FormatCase {
  readonly name: string;
  readonly file: string;
  /** ffmpeg's output options. */
  readonly args: readonly string[];
  /** The WAV original it is compared with: the 16 kHz source, or its 8 kHz version. */
  readonly original: 'source' | '8k';
  readonly lossless: boolean;
}

export const FORMAT_CASES: readonly FormatCase[] = [
  { name: 'FLAC', file: 'a.flac', args: ['-c:a', 'flac'], original: 'source', lossless: true },
  { name: 'AIFF', file: 'a.aiff', args: [], original: 'source', lossless: true },
  { name: 'CAF (PCM)', file: 'a.caf', args: ['-c:a', 'pcm_s16le'], original: 'source', lossless: true },
  {
    name: 'MP3 64 kbps',
    file: 'a.mp3',
    args: ['-c:a', 'libmp3lame', '-b:a', '64k'],
    original: 'source',
    lossless: false,
  },
  {
    name: 'Ogg Vorbis 64 kbps',
    file: 'a.ogg',
    args: ['-c:a', 'libvorbis', '-b:a', '64k'],
    original: 'source',
    lossless: false,
  },
  {
    name: 'Ogg Opus 64 kbps',
    file: 'a.opus',
    args: ['-c:a', 'libopus', '-b:a', '64k'],
    original: 'source',
    lossless: false,
  },
  {
    name: 'WebM Opus 64 kbps, 48 kHz',
    file: 'a.webm',
    args: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '64k'],
    original: 'source',
    lossless: false,
  },
  {
    name: 'WAV µ-law 8 kHz',
    file: 'mulaw.wav',
    args: ['-ar', '8000', '-c:a', 'pcm_mulaw'],
    original: '8k',
    lossless: false,
  },
];

/**
 * The acoustic validation's targets (docs/acoustics.md, "Validation"): how far a measure may be from
 * the original's, absolute (in the measure's unit) or relative (a fraction of the original's value).
 */
export const TOLERANCES: Readonly<Partial<Record<keyof Measures, { abs?: number; rel?: number }>>> = {
  f0_mean_hz: { rel: 0.01 },
  f0_sd_hz: { rel: 0.05 },
  f0_sd_st: { rel: 0.05 },
  jitter_local_pct: { rel: 0.1 },
  shimmer_local_pct: { rel: 0.1 },
  hnr_db: { abs: 0.5 },
  cpps_db: { abs: 0.5 },
  intensity_mean_db: { abs: 0.1 },
  f1_mean_hz: { rel: 0.03 },
  f2_mean_hz: { rel: 0.03 },
  f3_mean_hz: { rel: 0.03 },
  pause_count: { abs: 0 },
  pause_mean_s: { abs: 0.05 },
};

export const SPEECH_TOLERANCE_SECONDS = 0.5;

export interface FormatRow {
  readonly format: FormatCase;
  readonly speech: number;
  readonly originalSpeech: number;
  /** Per measure: the difference (relative for relative targets) and whether it is within the target. */
  readonly measures: Readonly<Record<string, { diff: number; within: boolean; relative: boolean }>>;
  /**
   * For a lossy format, the same comparisons made with ffmpeg's decode of the same file: ffmpeg's
   * against the original (what the codec itself loses) and ours against ffmpeg's (what our decoding
   * adds). Null for a lossless format.
   */
  readonly ffmpeg: {
    readonly againstOriginal: FormatRow['measures'];
    readonly oursAgainstFfmpeg: FormatRow['measures'];
  } | null;
}

const ffmpeg = (args: readonly string[]): void => {
  const r = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${String(r.stderr)}`);
};

/** Each measure's difference from the original's, against its target. */
export const compareMeasures = (ours: Measures, original: Measures): FormatRow['measures'] => {
  const out: Record<string, { diff: number; within: boolean; relative: boolean }> = {};
  for (const [k, t] of Object.entries(TOLERANCES)) {
    const a = ours[k as keyof Measures];
    const b = original[k as keyof Measures];
    if (a === null || b === null) {
      out[k] = { diff: Number.NaN, within: a === b, relative: t.rel !== undefined };
      continue;
    }
    const diff = t.rel !== undefined ? (a - b) / Math.abs(b) : a - b;
    const bound = t.rel ?? t.abs!;
    out[k] = { diff, within: Math.abs(diff) <= bound + 1e-12, relative: t.rel !== undefined };
  }
  return out;
};

const measuresOf = async (path: string) => {
  const m = await measureFile(path);
  if (!m.ok) throw new Error(`${path}: ${m.error.detail}`);
  return m.value.measures;
};

const measured = async (path: string) => ({
  measures: await measuresOf(path),
  speech: (await measureFileSpeech({ path, choice: 'auto' })).sent.speechSeconds,
});

/** Encodes `source` into every format in `dir` and compares each with its original. */
export const compareFormats = async (
  source: string,
  dir: string,
  cases: readonly FormatCase[] = FORMAT_CASES,
): Promise<FormatRow[]> => {
  const originals = { source: join(dir, 'original.wav'), '8k': join(dir, 'original-8k.wav') };
  ffmpeg(['-i', source, '-c:a', 'pcm_s16le', originals.source]);
  ffmpeg(['-i', source, '-ar', '8000', '-c:a', 'pcm_s16le', originals['8k']]);
  const reference = new Map<string, Awaited<ReturnType<typeof measured>>>();
  const rows: FormatRow[] = [];
  for (const c of cases) {
    const path = join(dir, c.file);
    ffmpeg(['-i', originals[c.original], ...c.args, path]);
    if (!reference.has(c.original)) reference.set(c.original, await measured(originals[c.original]));
    const ref = reference.get(c.original)!;
    const ours = await measured(path);
    let viaFfmpeg: FormatRow['ffmpeg'] = null;
    if (!c.lossless) {
      const decoded = join(dir, `${c.file}.ffmpeg.wav`);
      ffmpeg(['-i', path, '-c:a', 'pcm_f32le', decoded]);
      const theirs = await measuresOf(decoded);
      viaFfmpeg = {
        againstOriginal: compareMeasures(theirs, ref.measures),
        oursAgainstFfmpeg: compareMeasures(ours.measures, theirs),
      };
    }
    rows.push({
      format: c,
      speech: ours.speech,
      originalSpeech: ref.speech,
      measures: compareMeasures(ours.measures, ref.measures),
      ffmpeg: viaFfmpeg,
    });
  }
  return rows;
};

const cell = (m: { diff: number; within: boolean; relative: boolean }): string =>
  Number.isNaN(m.diff)
    ? m.within
      ? 'both none'
      : 'one none'
    : `${m.relative ? `${(m.diff * 100).toFixed(2)} %` : m.diff.toFixed(3)}${m.within ? '' : ' (over)'}`;

export const formatTable = (rows: readonly FormatRow[]): string => {
  const keys = Object.keys(TOLERANCES);
  const head = `| format | speech (s): file / original | ${keys.join(' | ')} |`;
  const rule = `|${' --- |'.repeat(keys.length + 2)}`;
  const body = rows.flatMap((r) => {
    const row = `| ${r.format.name} | ${r.speech.toFixed(2)} / ${r.originalSpeech.toFixed(2)} | ${keys.map((k) => cell(r.measures[k]!)).join(' | ')} |`;
    const missed = keys.filter((k) => !r.measures[k]!.within);
    if (r.ffmpeg === null || missed.length === 0) return [row];
    const f = r.ffmpeg;
    const codec = `| ↳ ffmpeg's decode of the same file | | ${keys.map((k) => (missed.includes(k) ? cell(f.againstOriginal[k]!) : '')).join(' | ')} |`;
    return [row, codec];
  });
  return [head, rule, ...body].join('\n');
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const corpus = process.env['VOICESCOPE_CORPUS'] ?? '/work/corpus';
  const source = process.argv[2] ?? join(corpus, 'pyannote', 'sample.wav');
  const dir = mkdtempSync(join(tmpdir(), 'vs-decoded-formats-'));
  try {
    console.log(formatTable(await compareFormats(source, dir)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
