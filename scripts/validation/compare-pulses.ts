/**
 * Step-by-step comparison of the engine's jitter and shimmer path with Praat's: the To Pitch
 * (ac) track the pulses come from, the pulses themselves, jitter and shimmer computed by our formulas on
 * Praat's own pulses, and shimmer recomputed from Praat's AmplitudeTier (period).
 *
 *   npx tsx scripts/validation/compare-pulses.ts <file.wav>... [--floor 75] [--ceiling 500]
 *
 * Needs Praat (scripts/validation/pulses.praat). Findings: docs/acoustics.md, "Jitter and shimmer, step by step".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

import { parseWavHeader, readMonoSamples } from '../../main/audio/wav';
import { pitchDefaults, toPitch } from '../../main/acoustics/pitch';
import { toPointProcess } from '../../main/acoustics/point-process';
import { jitterLocal, PERTURBATION_DEFAULTS, shimmerLocal } from '../../main/acoustics/voice';

const SCRIPT = resolve(import.meta.dirname, 'pulses.praat');
const numbers = (path: string): number[][] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t').map(Number));

/** Distance from t to the nearest time in a sorted array. */
const nearest = (sorted: Float64Array, t: number): number => {
  let lo = 0;
  let hi = sorted.length - 1;
  while (hi - lo > 1) {
    const m = (lo + hi) >> 1;
    if (sorted[m]! < t) lo = m;
    else hi = m;
  }
  return Math.min(Math.abs(sorted[lo]! - t), Math.abs(sorted[hi]! - t));
};

/**
 * Shimmer (local) from an amplitude tier whose points sit on pulses: consecutive points are compared when
 * they sit on consecutive pulses and their ratio is within the maximum amplitude factor; the mean is over
 * every point. (Reproduces Praat's "Get shimmer (local)" from its own AmplitudeTier (period).)
 */
const shimmerFromTier = (tier: number[][], pulses: Float64Array): number => {
  const index = new Map(Array.from(pulses, (t, i) => [t.toFixed(9), i]));
  let sumDiff = 0;
  let n = 0;
  let sum = 0;
  for (let i = 0; i < tier.length; i++) {
    const v = tier[i]![1]!;
    sum += v;
    if (i === 0) continue;
    const u = tier[i - 1]![1]!;
    const consecutive = index.get(tier[i]![0]!.toFixed(9))! === index.get(tier[i - 1]![0]!.toFixed(9))! + 1;
    if (consecutive && Math.max(u, v) / Math.min(u, v) <= PERTURBATION_DEFAULTS.maxAmplitudeFactor) {
      sumDiff += Math.abs(v - u);
      n++;
    }
  }
  return sumDiff / n / (sum / tier.length);
};

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
const floor = option('--floor', 75);
const ceiling = option('--ceiling', 500);
const work = mkdtempSync(join(tmpdir(), 'vs-pulses-'));

for (const file of args) {
  const prefix = join(work, basename(file, '.wav'));
  const info = execFileSync('praat', ['--run', SCRIPT, file, String(floor), String(ceiling), prefix], {
    encoding: 'utf8',
  });
  const praat = Object.fromEntries(numbers0(info));
  const bytes = new Uint8Array(readFileSync(file));
  const header = parseWavHeader(bytes);
  if (!header.ok) throw new Error(`${file}: ${header.error.code}`);
  const x = readMonoSamples(bytes, header.value);
  const fs = header.value.sampleRateHz;

  const track = toPitch(x, fs, pitchDefaults('ac', floor, ceiling));
  const praatTrack = numbers(`${prefix}.ac`);
  let both = 0;
  let oursOnly = 0;
  let praatOnly = 0;
  for (let i = 0; i < Math.min(track.grid.count, praatTrack.length); i++) {
    const a = praatTrack[i]![1]! > 0;
    const b = track.f0[i]! > 0;
    if (a && b) both++;
    else if (a) praatOnly++;
    else if (b) oursOnly++;
  }

  const pulses = Float64Array.from(numbers(`${prefix}.pp`).map((r) => r[0]!));
  const ours = toPointProcess(x, fs, track);
  const offsets = Array.from(ours, (t) => nearest(pulses, t)).sort((p, q) => p - q);
  const within = (d: number): number => offsets.filter((o) => o < d).length;
  const onPraatTrack = toPointProcess(x, fs, { ...track, f0: Float64Array.from(praatTrack, (r) => r[1]!) });
  const offsetsOnTrack = Array.from(onPraatTrack, (t) => nearest(pulses, t)).sort((p, q) => p - q);
  const onPraat = shimmerLocal(x, fs, pulses);
  const ourShimmer = shimmerLocal(x, fs, ours);
  const pct = (v: number | null | undefined): string => (v == null ? '—' : (v * 100).toFixed(3));

  console.log(`\n${basename(file)}`);
  console.log(
    `  To Pitch (ac): ${both} frames voiced in both, ${oursOnly} only in ours, ${praatOnly} only in Praat's`,
  );
  console.log(
    `  pulses: Praat ${pulses.length}, ours ${ours.length}; ours within 0.2 ms of Praat's ${within(0.0002)}, ` +
      `within 1 ms ${within(0.001)}, more than 3 ms away ${ours.length - within(0.003)}`,
  );
  console.log(
    `  pulses from Praat's ac track: ${onPraatTrack.length}; within 0.2 ms of Praat's ` +
      `${offsetsOnTrack.filter((o) => o < 0.0002).length}; jitter % ${pct(jitterLocal(onPraatTrack))}, ` +
      `shimmer % ${pct(shimmerLocal(x, fs, onPraatTrack).local)}`,
  );
  console.log(
    `  jitter %: Praat ${pct(praat.jitter)}, ours on Praat's pulses ${pct(jitterLocal(pulses))}, ours ${pct(jitterLocal(ours))}`,
  );
  console.log(
    `  shimmer %: Praat ${pct(praat.shimmer)}, from Praat's AmplitudeTier ${pct(shimmerFromTier(numbers(`${prefix}.amp`), pulses))}, ` +
      `ours on Praat's pulses ${pct(onPraat.local)}, ours ${pct(ourShimmer.local)}`,
  );
}

function numbers0(info: string): [string, number][] {
  return info
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([k, v]) => [k!, Number(v)]);
}
