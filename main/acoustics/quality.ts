/**
 * Recording quality control over decoded PCM (mono floats in [-1, 1]), a pure function: levels, DC
 * offset, clipping, a signal-to-noise estimate and long silences, and a verdict with reasons.
 *
 * SNR: the signal is cut into 20 ms frames; the noise level is the 10th percentile of frame RMS (dB),
 * the speech level the 90th percentile; SNR is their difference. Clipping: the share of samples at or
 * above 0.999 full scale. Long silences: runs of frames more than 40 dB below the speech level, or of
 * digital silence, lasting at least `longSilenceSeconds`. Digital silence (samples exactly zero, a gap or
 * an edit in the file) of `digitalSilenceSeconds` or more is named apart, with the measures it distorts.
 */
import { MEASURES, type MeasureKey } from '../../shared/acoustics/measures';

export type QualityVerdict = 'good' | 'usable' | 'poor';

export interface QualityReport {
  readonly durationSeconds: number;
  readonly peakDbfs: number | null;
  readonly rmsDbfs: number | null;
  readonly dcOffset: number;
  readonly clippingRatio: number;
  readonly snrDb: number | null;
  readonly longSilences: number;
  readonly longSilenceSeconds: number;
  readonly verdict: QualityVerdict;
  readonly reasons: readonly string[];
}

export interface QualityThresholds {
  readonly longSilenceSeconds: number;
  readonly poorSnrDb: number;
  readonly usableSnrDb: number;
  readonly poorClipping: number;
  readonly usableClipping: number;
  readonly quietPeakDbfs: number;
  readonly dcOffset: number;
  readonly minSeconds: number;
  readonly digitalSilenceSeconds: number;
}

export const QUALITY_THRESHOLDS: QualityThresholds = {
  longSilenceSeconds: 2,
  poorSnrDb: 10,
  usableSnrDb: 20,
  poorClipping: 0.01,
  usableClipping: 0.001,
  quietPeakDbfs: -30,
  dcOffset: 0.02,
  minSeconds: 1,
  digitalSilenceSeconds: 0.2,
};

/**
 * The local measures that stretches of digital silence distort: the intensity contour drops to its
 * floor there (its SD and mean), the noise floor of the SNR is read from what is left, and the silence
 * counts as pauses.
 */
export const DIGITAL_SILENCE_AFFECTS: readonly MeasureKey[] = [
  'intensity_sd_db',
  'intensity_mean_db',
  'pause_count',
  'pause_mean_s',
  'pause_sd_s',
  'phonation_ratio',
];
/** The local measures that long quiet gaps (no speech, not digital silence) change: pauses and what follows from them. */
export const GAP_AFFECTS: readonly MeasureKey[] = [
  'pause_count',
  'pause_mean_s',
  'pause_sd_s',
  'phonation_ratio',
  'intensity_sd_db',
];

const measureNames = (keys: readonly MeasureKey[]) => keys.map((k) => MEASURES[k].label).join(', ');

interface Runs {
  count: number;
  seconds: number;
}

/** Runs of frames meeting `is`, lasting at least `minSeconds`. */
const runsOf = (
  levels: readonly number[],
  is: (l: number) => boolean,
  frameSeconds: number,
  minSeconds: number,
) => {
  const out: Runs = { count: 0, seconds: 0 };
  let run = 0;
  const flush = () => {
    const secs = run * frameSeconds;
    if (run > 0 && secs >= minSeconds - 1e-9) {
      out.count++;
      out.seconds += secs;
    }
    run = 0;
  };
  for (const l of levels) {
    if (is(l)) run++;
    else flush();
  }
  flush();
  return out;
};

const db = (v: number): number | null => (v > 0 ? 20 * Math.log10(v) : null);

export const assessQuality = (
  x: Float32Array,
  fs: number,
  t: QualityThresholds = QUALITY_THRESHOLDS,
): QualityReport => {
  const n = x.length;
  const durationSeconds = n / fs;
  let peak = 0;
  let sum = 0;
  let sumSq = 0;
  let clipped = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    const a = Math.abs(v);
    if (a > peak) peak = a;
    if (a >= 0.999) clipped++;
    sum += v;
    sumSq += v * v;
  }
  const dcOffset = n > 0 ? sum / n : 0;
  const clippingRatio = n > 0 ? clipped / n : 0;
  const frame = Math.max(1, Math.round(0.02 * fs));
  const levels: number[] = [];
  for (let s = 0; s + frame <= n; s += frame) {
    let e = 0;
    let m = 0;
    for (let i = s; i < s + frame; i++) m += x[i]!;
    m /= frame;
    for (let i = s; i < s + frame; i++) e += (x[i]! - m) ** 2;
    levels.push(e > 0 ? 10 * Math.log10(e / frame) : -Infinity);
  }
  const sorted = levels.filter(Number.isFinite).sort((a, b) => a - b);
  const pct = (q: number): number | null =>
    sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const speech = pct(0.9);
  const noise = pct(0.1);
  const digitalSilence = levels.some((l) => l === -Infinity);
  const snrDb =
    speech === null || noise === null ? null : digitalSilence && noise === speech ? null : speech - noise;
  const frameSeconds = frame / fs;
  const quietOrSilent = (l: number) => l === -Infinity || (speech !== null && l < speech - 40);
  const long = runsOf(levels, quietOrSilent, frameSeconds, t.longSilenceSeconds);
  const longSilences = long.count;
  const longSilenceSeconds = long.seconds;
  const digital = runsOf(levels, (l) => l === -Infinity, frameSeconds, t.digitalSilenceSeconds);
  const gaps = runsOf(levels, (l) => l !== -Infinity && quietOrSilent(l), frameSeconds, t.longSilenceSeconds);

  const poor: string[] = [];
  const usable: string[] = [];
  const peakDbfs = db(peak);
  if (durationSeconds < t.minSeconds) poor.push(`shorter than ${t.minSeconds} s`);
  if (peak === 0) poor.push('digital silence throughout');
  else if (peakDbfs !== null && peakDbfs < t.quietPeakDbfs)
    usable.push(`very quiet: peak ${peakDbfs.toFixed(1)} dBFS`);
  if (clippingRatio >= t.poorClipping) poor.push(`clipped: ${(clippingRatio * 100).toFixed(2)} % of samples`);
  else if (clippingRatio >= t.usableClipping)
    usable.push(`some clipping: ${(clippingRatio * 100).toFixed(2)} % of samples`);
  if (snrDb !== null && snrDb < t.poorSnrDb) poor.push(`noisy: SNR about ${snrDb.toFixed(1)} dB`);
  else if (snrDb !== null && snrDb < t.usableSnrDb)
    usable.push(`some noise: SNR about ${snrDb.toFixed(1)} dB`);
  if (Math.abs(dcOffset) >= t.dcOffset) usable.push(`DC offset ${dcOffset.toFixed(3)}`);
  if (peak > 0 && digital.count > 0)
    usable.push(
      `digital silence (samples exactly zero, a gap or an edit in the file): ${digital.count} stretch(es), ${digital.seconds.toFixed(1)} s in all; it distorts ${measureNames(DIGITAL_SILENCE_AFFECTS)}, and the SNR may read too high`,
    );
  if (gaps.count > 0)
    usable.push(
      `${gaps.count} quiet gap(s) of ${t.longSilenceSeconds} s or more without speech (${gaps.seconds.toFixed(1)} s in all); they count in ${measureNames(GAP_AFFECTS)}`,
    );
  const verdict: QualityVerdict = poor.length > 0 ? 'poor' : usable.length > 0 ? 'usable' : 'good';
  return {
    durationSeconds,
    peakDbfs,
    rmsDbfs: n > 0 ? db(Math.sqrt(sumSq / n)) : null,
    dcOffset,
    clippingRatio,
    snrDb,
    longSilences,
    longSilenceSeconds,
    verdict,
    reasons: [...poor, ...usable],
  };
};
