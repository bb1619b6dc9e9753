/**
 * Validation harness: compares every local acoustic measure with Praat's own on the same files, and
 * times both.
 *
 *   npx tsx scripts/validation/acoustics.ts [--out <dir>] [--corpus <dir of .wav>] [--no-espeak]
 *     [--praat-cache <dir>]   (Praat's outputs kept there and reused: only the engine runs again)
 *
 * Material: synthetic signals with known answers (scripts/validation/synthetic.ts); speech synthesised
 * by espeak-ng when it is installed (several voices, rates and noise floors); and every .wav under
 * --corpus (real recordings fetched by scripts/validation/fetch-corpus.sh). Praat runs
 * scripts/validation/measure.praat; its analysis time comes from Praat's own stopwatch (startup and
 * file reading excluded), ours from measureSamples (decoding excluded). Writes report.md and
 * results.json into --out (default: <system temp>/voicescope-validation, outside the repository).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

import { encodeWav } from '../../test/fixtures/audio';
import { parseWavHeader, readMonoSamples } from '../../main/audio/wav';
import { DEFAULT_PITCH_SETTINGS } from '../../shared/acoustics/pitch-settings';
import { measureSamples } from '../../main/acoustics/measure';
import { MEASURE_KEYS, type MeasureKey } from '../../main/acoustics/measures';
import { seeded, syntheticSet } from './synthetic';

const PRAAT_SCRIPT = resolve(import.meta.dirname, 'measure.praat');

/** The issue's agreement targets: relative (fraction) or absolute (in the measure's unit). */
export const TARGETS: Partial<Record<MeasureKey, { rel?: number; abs?: number; share: number }>> = {
  f0_mean_hz: { rel: 0.01, share: 0.9 },
  f0_sd_hz: { rel: 0.05, share: 0.9 },
  f0_sd_st: { rel: 0.05, share: 0.9 },
  jitter_local_pct: { rel: 0.1, share: 0.9 },
  shimmer_local_pct: { rel: 0.1, share: 0.9 },
  hnr_db: { abs: 0.5, share: 0.9 },
  cpps_db: { abs: 0.5, share: 0.9 },
  intensity_mean_db: { abs: 0.1, share: 1 },
  f1_mean_hz: { rel: 0.03, share: 0.9 },
  f2_mean_hz: { rel: 0.03, share: 0.9 },
  f3_mean_hz: { rel: 0.03, share: 0.9 },
  pause_count: { abs: 0, share: 0.8 },
  pause_mean_s: { abs: 0.05, share: 0.9 },
};

export interface PraatRun {
  readonly measures: Record<string, number | null>;
  readonly seconds: number;
}

export const praatAvailable = (): boolean => spawnSync('praat', ['--version']).status === 0;

export const runPraat = (file: string, floor = 75, ceiling = 500, track = '-'): PraatRun => {
  // Praat's warnings (e.g. a sound too steady for the silences threshold) are kept off the terminal.
  const out = execFileSync('praat', ['--run', PRAAT_SCRIPT, file, String(floor), String(ceiling), track], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const measures: Record<string, number | null> = {};
  let seconds = NaN;
  for (const line of out.trim().split('\n')) {
    const [k, v] = line.split('\t');
    if (k === undefined || v === undefined) continue;
    const n = v.includes('undefined') ? null : Number(v);
    if (k === 'seconds') seconds = n ?? NaN;
    else measures[k] = n;
  }
  return { measures, seconds };
};

export const pearson = (a: readonly number[], b: readonly number[]): number | null => {
  const n = a.length;
  if (n < 3) return null;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : null;
};

const median = (v: readonly number[]): number | null => {
  if (v.length === 0) return null;
  const s = [...v].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const writeWav = (path: string, samples: Float32Array, rate: number): void =>
  writeFileSync(path, encodeWav([samples], { sampleRateHz: rate, format: 'pcm16' }));

/** Speech from espeak-ng: a few voices, rates and noise floors (a recording has no digital silence). */
const espeakSet = (dir: string): string[] => {
  if (spawnSync('espeak-ng', ['--version']).status !== 0) return [];
  const text = [
    'The north wind and the sun were disputing which was the stronger, when a traveller came along wrapped in a warm cloak.',
    'They agreed that the one who first succeeded in making the traveller take his cloak off should be considered stronger than the other.',
    'Then the north wind blew as hard as he could, but the more he blew the more closely did the traveller fold his cloak around him.',
  ].join(' ');
  const voices: [string, number, number][] = [
    ['en', 160, 0.001],
    ['en+f3', 150, 0.003],
    ['en-us+m3', 175, 0.0005],
    ['en+f2', 140, 0.01],
    ['de', 150, 0.002],
    ['fr+m2', 165, 0.004],
  ];
  const files: string[] = [];
  for (const [i, [voice, rate, noise]] of voices.entries()) {
    const raw = join(dir, `espeak-raw-${i}.wav`);
    execFileSync('espeak-ng', ['-v', voice, '-s', String(rate), '-g', '8', '-w', raw, text]);
    const bytes = new Uint8Array(readFileSync(raw));
    const info = parseWavHeader(bytes);
    if (!info.ok) continue;
    const x = readMonoSamples(bytes, info.value);
    const rand = seeded(100 + i);
    const y = new Float32Array(x.length);
    for (let k = 0; k < x.length; k++) y[k] = x[k]! * 0.8 + noise * (rand() + rand() + rand() - 1.5) * 2;
    const name = join(dir, `espeak-${voice.replace(/[^a-z0-9]+/gi, '_')}-${rate}.wav`);
    writeWav(name, y, info.value.sampleRateHz);
    files.push(name);
  }
  return files;
};

export interface FileResult {
  readonly file: string;
  readonly kind: 'synthetic' | 'espeak' | 'corpus';
  readonly seconds: number;
  readonly known: Record<string, number>;
  readonly ours: Record<string, number | null>;
  readonly praat: Record<string, number | null>;
  readonly oursSeconds: number;
  readonly praatSeconds: number;
  readonly frames: FrameAgreement;
}

/** Frame-level agreement of the two pitch tracks (same frame grid). */
export interface FrameAgreement {
  /** Frames Praat calls voiced. */
  readonly praatVoiced: number;
  /** Of those, frames we call voiced too. */
  readonly bothVoiced: number;
  /** Frames we call voiced and Praat does not. */
  readonly oursOnly: number;
  /** Frames voiced in both whose F0 differs by more than 600 cents (half an octave and more). */
  readonly octaveErrors: number;
  /** |cents| of every frame voiced in both. */
  readonly cents: number[];
}

const readTrack = (file: string): number[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => Number(l.split('\t')[1]));

export const frameAgreement = (ours: ArrayLike<number>, praat: readonly number[]): FrameAgreement => {
  let praatVoiced = 0;
  let bothVoiced = 0;
  let oursOnly = 0;
  let octaveErrors = 0;
  const cents: number[] = [];
  const n = Math.min(ours.length, praat.length);
  for (let i = 0; i < n; i++) {
    const a = ours[i]!;
    const b = praat[i]!;
    if (b > 0) praatVoiced++;
    if (a > 0 && !(b > 0)) oursOnly++;
    if (a > 0 && b > 0) {
      bothVoiced++;
      const c = Math.abs(1200 * Math.log2(a / b));
      if (c > 600) octaveErrors++;
      cents.push(c);
    }
  }
  return { praatVoiced, bothVoiced, oursOnly, octaveErrors, cents };
};

/**
 * Praat's measures and track for a file, from `cache` (a folder) when it holds them for a file of the
 * same name and size, else from a run of Praat that is then kept there. Praat does not change between
 * runs of the harness, so comparing a changed engine needs Praat only once; a kept run that lacks a
 * measure added since (measure.praat grew) is run again.
 */
const cachedPraat = (file: string, cache: string | undefined): { praat: PraatRun; track: number[] } => {
  const key = cache === undefined ? undefined : join(cache, `${basename(file)}-${statSync(file).size}`);
  if (key !== undefined && existsSync(`${key}.json`)) {
    const kept = JSON.parse(readFileSync(`${key}.json`, 'utf8')) as { praat: PraatRun; track: number[] };
    if (MEASURE_KEYS.every((k) => k in kept.praat.measures)) return kept;
  }
  const trackFile = join(tmpdir(), `voicescope-track-${process.pid}.tsv`);
  const praat = runPraat(file, 75, 500, trackFile);
  const run = { praat, track: readTrack(trackFile) };
  if (key !== undefined) writeFileSync(`${key}.json`, JSON.stringify(run));
  return run;
};

export const compareFile = (
  file: string,
  kind: FileResult['kind'],
  known: Record<string, number> = {},
  praatCache?: string,
): FileResult => {
  const bytes = new Uint8Array(readFileSync(file));
  const info = parseWavHeader(bytes);
  if (!info.ok) throw new Error(`${file}: ${info.error.detail}`);
  const x = readMonoSamples(bytes, info.value);
  const t = performance.now();
  const ours = measureSamples(x, info.value.sampleRateHz, DEFAULT_PITCH_SETTINGS);
  const oursSeconds = (performance.now() - t) / 1000;
  const { praat, track } = cachedPraat(file, praatCache);
  const frames = frameAgreement(ours.pitchTrack.f0, track);
  return {
    frames,
    file,
    kind,
    seconds: info.value.durationSeconds,
    known,
    ours: ours.measures,
    praat: praat.measures,
    oursSeconds,
    praatSeconds: praat.seconds,
  };
};

export interface MeasureAgreement {
  readonly key: MeasureKey;
  readonly n: number;
  readonly medianAbsDiff: number | null;
  readonly medianRelDiffPct: number | null;
  readonly r: number | null;
  readonly withinTarget: number | null;
  readonly target: string;
}

export const agreement = (results: readonly FileResult[]): MeasureAgreement[] =>
  MEASURE_KEYS.map((key) => {
    const pairs = results
      .map((r) => [r.ours[key], r.praat[key]] as const)
      .filter((p): p is readonly [number, number] => p[0] != null && p[1] != null);
    const abs = pairs.map(([a, b]) => Math.abs(a - b));
    const rel = pairs.filter(([, b]) => b !== 0).map(([a, b]) => Math.abs(a - b) / Math.abs(b));
    const t = TARGETS[key];
    const within =
      t === undefined || pairs.length === 0
        ? null
        : pairs.filter(([a, b]) =>
            t.rel !== undefined
              ? Math.abs(a - b) <= t.rel * Math.abs(b)
              : Math.abs(a - b) <= (t.abs ?? 0) + 1e-9,
          ).length / pairs.length;
    const m = median(rel);
    return {
      key,
      n: pairs.length,
      medianAbsDiff: median(abs),
      medianRelDiffPct: m === null ? null : m * 100,
      r: pearson(
        pairs.map((p) => p[0]),
        pairs.map((p) => p[1]),
      ),
      withinTarget: within,
      target:
        t === undefined
          ? '—'
          : `${t.rel !== undefined ? `${t.rel * 100} %` : `${t.abs}`} on ${Math.round(t.share * 100)} %`,
    };
  });

const fmt = (v: number | null, d = 3): string => (v === null ? '—' : v.toFixed(d));

export const reportMarkdown = (results: readonly FileResult[]): string => {
  const lines: string[] = [];
  const groups: [string, readonly FileResult[]][] = [
    ['all files', results],
    ['synthetic', results.filter((r) => r.kind === 'synthetic')],
    ['espeak-ng speech', results.filter((r) => r.kind === 'espeak')],
    ['corpus (real speech)', results.filter((r) => r.kind === 'corpus')],
  ];
  for (const [name, rs] of groups) {
    if (rs.length === 0) continue;
    const audio = rs.reduce((s, r) => s + r.seconds, 0);
    const ours = rs.reduce((s, r) => s + r.oursSeconds, 0);
    const praat = rs.reduce((s, r) => s + r.praatSeconds, 0);
    lines.push(`## ${name}: ${rs.length} files, ${audio.toFixed(1)} s of audio`, '');
    lines.push(
      `Speed: ours ${((ours / audio) * 60).toFixed(2)} s per minute of audio, Praat ${((praat / audio) * 60).toFixed(2)} s per minute (ratio ours/Praat ${(ours / praat).toFixed(2)}).`,
      '',
    );
    const fa = rs.map((r) => r.frames);
    const pv = fa.reduce((s, f) => s + f.praatVoiced, 0);
    const bv = fa.reduce((s, f) => s + f.bothVoiced, 0);
    const oo = fa.reduce((s, f) => s + f.oursOnly, 0);
    const oe = fa.reduce((s, f) => s + f.octaveErrors, 0);
    const mc = median(fa.flatMap((f) => f.cents));
    lines.push(
      `Pitch frames, pooled: ${pv} voiced in Praat, ${((bv / (pv || 1)) * 100).toFixed(2)} % of them voiced in ours (target >= 97 %); ${oo} frames voiced only in ours (${((oo / (pv || 1)) * 100).toFixed(2)} % of Praat's voiced); octave-type errors (> 600 cents) ${((oe / (bv || 1)) * 100).toFixed(2)} % (target < 1 %); median |difference| ${fmt(mc, 2)} cents (target <= 5).`,
      '',
    );
    lines.push('| measure | n | median abs diff | median rel diff % | Pearson r | within target | target |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const a of agreement(rs))
      lines.push(
        `| ${a.key} | ${a.n} | ${fmt(a.medianAbsDiff, 4)} | ${fmt(a.medianRelDiffPct, 2)} | ${fmt(a.r, 4)} | ${a.withinTarget === null ? '—' : `${(a.withinTarget * 100).toFixed(0)} %`} | ${a.target} |`,
      );
    lines.push('');
  }
  const known = results.filter((r) => Object.keys(r.known).length > 0);
  if (known.length > 0) {
    lines.push(
      '## Known answers (synthetic)',
      '',
      '| file | measure | built | ours | Praat |',
      '|---|---|---|---|---|',
    );
    for (const r of known)
      for (const [k, v] of Object.entries(r.known))
        lines.push(
          `| ${r.file.split('/').pop()} | ${k} | ${v.toFixed(3)} | ${fmt(r.ours[k] ?? null)} | ${fmt(r.praat[k] ?? null)} |`,
        );
    lines.push('');
  }
  return lines.join('\n');
};

const main = (): void => {
  const args = process.argv.slice(2);
  const arg = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const out = resolve(arg('--out') ?? join(tmpdir(), 'voicescope-validation'));
  const corpus = arg('--corpus');
  const praatCache = arg('--praat-cache');
  mkdirSync(out, { recursive: true });
  if (praatCache !== undefined) mkdirSync(praatCache, { recursive: true });
  if (!praatAvailable()) {
    console.error('praat is not installed (Debian: apt-get install praat); nothing to compare with.');
    process.exit(2);
  }
  const results: FileResult[] = [];
  for (const s of syntheticSet()) {
    const file = join(out, `${s.name}.wav`);
    writeWav(file, s.samples, s.sampleRate);
    results.push(compareFile(file, 'synthetic', s.known, praatCache));
    console.error(`synthetic ${s.name}`);
  }
  if (!args.includes('--no-espeak'))
    for (const file of espeakSet(out)) {
      results.push(compareFile(file, 'espeak'));
      console.error(`espeak ${file}`);
    }
  if (corpus !== undefined)
    for (const f of readdirSync(corpus)
      .filter((f) => f.toLowerCase().endsWith('.wav'))
      .sort()) {
      results.push(compareFile(join(corpus, f), 'corpus', {}, praatCache));
      console.error(`corpus ${f}`);
    }
  writeFileSync(join(out, 'results.json'), JSON.stringify(results, null, 1));
  const md = reportMarkdown(results);
  writeFileSync(join(out, 'report.md'), md);
  console.log(md);
};

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
