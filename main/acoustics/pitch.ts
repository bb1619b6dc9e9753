/**
 * Periodicity analysis after Boersma (1993), "Accurate short-term analysis of the fundamental frequency
 * and the harmonics-to-noise ratio of a sampled sound", IFA Proceedings 17, and Praat's manual pages
 * "Sound: To Pitch (ac)...", "Sound: To Pitch (cc)..." and "Pitch: path finder".
 *
 * Per frame: candidates are the local maxima of the normalised correlation r(τ) of the signal, placed
 * by a parabola and then moved to the maximum of the sinc-interpolated curve (candidatesOfFrame). A
 * voiced candidate's strength is r − octaveCost · log2(ceiling / f) (favouring higher frequencies); the
 * unvoiced candidate's strength is voicingThreshold + max(0, 2 − (localPeak / globalPeak) /
 * (silenceThreshold / (1 + voicingThreshold))). A Viterbi path then picks one candidate per frame,
 * maximising total strength minus transition costs: voicedUnvoicedCost for a voicing change and
 * octaveJumpCost · |log2(f₁ / f₂)| between voiced frames, both scaled by 0.01 s / time step.
 *
 * Two correlation methods: `cc` (forward cross-correlation of a window of about one longest period
 * with the same length of signal τ later, normalised by both energies; no taper) and `ac`
 * (autocorrelation of a Hanning-windowed frame of `periodsPerWindow` / floor seconds, divided by the
 * autocorrelation of the window itself, the paper's eq. 9). Choices the paper and the manual leave
 * open are listed, with the measurements that settled them, in docs/acoustics.md ("Pitch").
 */
import { fft, nextPow2 } from './fft';
import { frameGrid, frameTime, type FrameGrid } from './frames';
import { improveMaximum } from './interpolation';

export interface PitchSettings {
  readonly method: 'cc' | 'ac';
  /** Seconds between frames; 0 means periodsPerWindow / floor / 4. */
  readonly timeStep: number;
  readonly floor: number;
  readonly ceiling: number;
  readonly maxCandidates: number;
  readonly silenceThreshold: number;
  readonly voicingThreshold: number;
  readonly octaveCost: number;
  readonly octaveJumpCost: number;
  readonly voicedUnvoicedCost: number;
  readonly periodsPerWindow: number;
  /** Refine candidates with sinc interpolation of depth 700 rather than 70 (Praat's "very accurate"). */
  readonly veryAccurate?: boolean;
}

/** Praat's defaults for To Pitch (cc) and To Pitch (ac), with the floor and ceiling to be set. */
export const pitchDefaults = (method: 'cc' | 'ac', floor: number, ceiling: number): PitchSettings => ({
  method,
  timeStep: 0,
  floor,
  ceiling,
  maxCandidates: 15,
  silenceThreshold: 0.03,
  voicingThreshold: 0.45,
  octaveCost: 0.01,
  octaveJumpCost: 0.35,
  voicedUnvoicedCost: 0.14,
  periodsPerWindow: method === 'cc' ? 1 : 3,
});

export interface PitchTrack {
  readonly grid: FrameGrid;
  /** F0 per frame in Hz; 0 where the frame is unvoiced. */
  readonly f0: Float64Array;
  /** Correlation r of the chosen candidate (0 where unvoiced). */
  readonly strength: Float64Array;
}

interface Candidates {
  /** Frequency per candidate; index 0 is the unvoiced candidate (frequency 0). */
  readonly freq: number[];
  readonly r: number[];
  readonly strength: number[];
}

const globalPeakOf = (x: Float32Array): number => {
  let mean = 0;
  for (let i = 0; i < x.length; i++) mean += x[i]!;
  mean /= x.length || 1;
  let peak = 0;
  for (let i = 0; i < x.length; i++) {
    const a = Math.abs(x[i]! - mean);
    if (a > peak) peak = a;
  }
  return peak;
};

/**
 * products[lag] = Σ_{j<n} seg[j]·seg[lag + j] for lag 1..lastLag. Four lags share one pass over the
 * window (each sum still adds its terms in the same order, so the values are those of one lag at a time,
 * bit for bit); this is the inner loop of the cc analysis.
 */
const crossProducts = (seg: Float64Array, n: number, lastLag: number, products: Float64Array): void => {
  let lag = 1;
  for (; lag + 3 <= lastLag; lag += 4) {
    let p0 = 0;
    let p1 = 0;
    let p2 = 0;
    let p3 = 0;
    // b0..b3 slide along: seg[lag + j .. lag + j + 3], one new sample per step.
    let b0 = seg[lag]!;
    let b1 = seg[lag + 1]!;
    let b2 = seg[lag + 2]!;
    for (let j = 0; j < n; j++) {
      const a = seg[j]!;
      const b3 = seg[lag + j + 3]!;
      p0 += a * b0;
      p1 += a * b1;
      p2 += a * b2;
      p3 += a * b3;
      b0 = b1;
      b1 = b2;
      b2 = b3;
    }
    products[lag] = p0;
    products[lag + 1] = p1;
    products[lag + 2] = p2;
    products[lag + 3] = p3;
  }
  for (; lag <= lastLag; lag++) {
    let p = 0;
    for (let j = 0; j < n; j++) p += seg[j]! * seg[lag + j]!;
    products[lag] = p;
  }
};

/** A maximum of a frame's correlation curve: its lag in samples and the correlation there. */
interface Peak {
  readonly lag: number;
  readonly r: number;
}

/** Where the parabola through three equally spaced values peaks, in samples from the middle one, and its height. */
const parabolicPeak = (before: number, middle: number, after: number): { offset: number; height: number } => {
  const curvature = before - 2 * middle + after;
  if (curvature >= 0) return { offset: 0, height: middle };
  const offset = (0.5 * (before - after)) / curvature;
  return { offset, height: middle - 0.25 * (before - after) * offset };
};

/**
 * The local maxima of r(τ) from lag 1 to `lastLag` whose correlation exceeds `threshold`, each placed
 * by the parabola through it and its neighbours (Boersma 1993, section 3: the maxima of the sampled
 * correlation are the candidates before interpolation). r must reach one lag beyond `lastLag`.
 */
const correlationPeaks = (r: Float64Array, threshold: number, lastLag: number): Peak[] => {
  const peaks: Peak[] = [];
  for (let lag = 1; lag <= lastLag; lag++) {
    const here = r[lag]!;
    if (here <= threshold || here <= r[lag - 1]! || here < r[lag + 1]!) continue;
    const { offset, height } = parabolicPeak(r[lag - 1]!, here, r[lag + 1]!);
    peaks.push({ lag: lag + offset, r: height });
  }
  return peaks;
};

/**
 * A peak's lag and correlation moved to the maximum of the sinc-interpolated correlation (Boersma 1993,
 * section 5: the "accurate" estimate; Brent's method within a sample). A correlation above 1, which the
 * interpolation of a short window can give, is read as its reciprocal. A maximum that moves beyond the
 * longest lag a candidate may have stays at that lag, with the correlation sampled there (measured: on
 * Praat's cc candidates, lags pile up at exactly that lag).
 */
const refinedPeak = (r: Float64Array, peak: Peak, layout: FrameLayout): Peak => {
  const { x, y } = improveMaximum(r, Math.round(peak.lag), layout.depth);
  if (x > layout.lastPeakLag) return { lag: layout.lastPeakLag, r: r[layout.lastPeakLag]! };
  return { lag: x, r: y > 1 ? 1 / y : y };
};

/** A voiced candidate's strength: its correlation with the octave cost's preference for high frequencies. */
const voicedStrength = (r: number, frequency: number, s: PitchSettings): number =>
  r - s.octaveCost * Math.log2(s.ceiling / frequency);

/**
 * The unvoiced candidate's strength (Boersma 1993, eq. 23): the voicing threshold, plus up to 2 more in
 * frames whose local peak is low against the sound's global peak.
 */
const unvoicedStrength = (localPeak: number, globalPeak: number, s: PitchSettings): number => {
  const relativePeak = globalPeak > 0 ? localPeak / globalPeak : 0;
  return s.voicingThreshold + Math.max(0, 2 - relativePeak / (s.silenceThreshold / (1 + s.voicingThreshold)));
};

/** What every frame of one analysis shares: window, lags, spans and the interpolation depth. */
interface FrameLayout {
  readonly fs: number;
  /** Samples in the analysis window (an even number). */
  readonly windowSamples: number;
  /** Samples from the first sample of the window to the sample nearest the frame's centre. */
  readonly firstOffset: number;
  /** The longest lag computed. */
  readonly lastLag: number;
  /** The longest lag a candidate can have. */
  readonly lastPeakLag: number;
  /** Samples on each side of the frame's centre over which the local mean is taken (one longest period). */
  readonly meanReach: number;
  /** The samples, from the centre's, over which the local peak is taken. */
  readonly peakFirst: number;
  readonly peakLast: number;
  readonly depth: number;
}

/** A refined candidate: its frequency, correlation and strength. */
interface Candidate {
  readonly frequency: number;
  readonly r: number;
  readonly strength: number;
}

/**
 * The frame's maxima refined into candidates. With no path costs (harmonicity) only the strongest
 * refined candidate matters, so maxima are refined strongest first and those already more than
 * REFINEMENT_MARGIN under the best refined one are not refined.
 */
const refinedCandidates = (
  peaks: Peak[],
  r: Float64Array,
  s: PitchSettings,
  layout: FrameLayout,
): Candidate[] => {
  const ranked = peaks
    .map((peak) => ({ peak, rough: voicedStrength(peak.r, layout.fs / peak.lag, s) }))
    .sort((a, b) => b.rough - a.rough);
  const onlyStrongest = independentFrames(s);
  let bestRefined = -Infinity;
  const candidates: Candidate[] = [];
  for (const { peak, rough } of ranked) {
    if (onlyStrongest && rough < bestRefined - REFINEMENT_MARGIN) break;
    // A maximum above the ceiling only takes a place in the count: its parabolic placement will do.
    const refined = layout.fs / peak.lag > s.ceiling ? peak : refinedPeak(r, peak, layout);
    const frequency = layout.fs / refined.lag;
    const strength = voicedStrength(refined.r, frequency, s);
    bestRefined = Math.max(bestRefined, strength);
    candidates.push({ frequency, r: refined.r, strength });
  }
  return candidates;
};

/**
 * The candidates of one frame from its correlation curve r: the unvoiced candidate first, then the
 * maxima with the highest strengths after refinement (at most maxCandidates − 1 of them; Boersma 1993,
 * section 3, step 8). Maxima above the ceiling take their place in that count but are never chosen
 * (measured: Praat keeps them in the Pitch object, and its path never picks them).
 */
const candidatesOfFrame = (
  r: Float64Array,
  localPeak: number,
  globalPeak: number,
  s: PitchSettings,
  layout: FrameLayout,
): Candidates => {
  const freq = [0];
  const rs = [0];
  const strength = [unvoicedStrength(localPeak, globalPeak, s)];
  if (localPeak === 0) return { freq, r: rs, strength };
  const peaks = correlationPeaks(r, 0.5 * s.voicingThreshold, layout.lastPeakLag);
  const kept = refinedCandidates(peaks, r, s, layout)
    .sort((a, b) => b.strength - a.strength)
    .slice(0, s.maxCandidates - 1);
  for (const c of kept) {
    if (c.frequency > s.ceiling || c.frequency < s.floor) continue;
    freq.push(c.frequency);
    rs.push(c.r);
    strength.push(c.strength);
  }
  return { freq, r: rs, strength };
};

/**
 * With no path costs each frame keeps its strongest candidate, so a candidate whose unrefined strength
 * is this far under the best refined one so far is not refined (the refinement moves a strength by far
 * less on every clip of the validation corpus).
 */
const REFINEMENT_MARGIN = 0.2;

/** No path costs at all: the path finder then takes each frame's strongest candidate on its own. */
const independentFrames = (s: PitchSettings): boolean =>
  s.octaveCost === 0 && s.octaveJumpCost === 0 && s.voicedUnvoicedCost === 0;

/**
 * The autocorrelations (as inverse FFTs of the power spectra, zero-padded to the length of `re`) of two
 * real frames a and b with one forward and one inverse complex FFT: a goes in the real part and b in
 * the imaginary part, their spectra are A(k) = (Z(k) + Z*(n−k)) / 2 and B(k) = (Z(k) − Z*(n−k)) / 2i,
 * and since both power spectra are real and even, one inverse FFT of |A|² + i|B|² returns a's
 * autocorrelation in its real part and b's in its imaginary part.
 */
const autocorrelatePair = (
  a: Float64Array,
  b: Float64Array,
  re: Float64Array,
  im: Float64Array,
  acfA: Float64Array,
  acfB: Float64Array,
): void => {
  const n = re.length;
  re.fill(0);
  im.fill(0);
  re.set(a);
  im.set(b);
  fft(re, im);
  for (let k = 0; k <= n >> 1; k++) {
    const m = (n - k) & (n - 1);
    const zr = re[k]!;
    const zi = im[k]!;
    const wr = re[m]!;
    const wi = im[m]!;
    const ar = zr + wr;
    const ai = zi - wi;
    const br = zi + wi;
    const bi = zr - wr;
    const pa = 0.25 * (ar * ar + ai * ai);
    const pb = 0.25 * (br * br + bi * bi);
    acfA[k] = pa;
    acfB[k] = pb;
    acfA[m] = pa;
    acfB[m] = pb;
  }
  re.set(acfA);
  im.set(acfB);
  fft(re, im, true);
  acfA.set(re);
  acfB.set(im);
};

/**
 * The layout of an analysis (Praat's manual, "Sound: To Pitch (ac)..." and "(cc)...": the window is
 * `periodsPerWindow` periods of the floor; lags run from the ceiling's period to the floor's). The
 * window is made an even number of samples so that it sits symmetrically around the frame's centre.
 */
const acLayout = (fs: number, s: PitchSettings): FrameLayout => {
  const longestPeriodSamples = fs / s.floor;
  const longestLag = Math.ceil(longestPeriodSamples);
  return {
    fs,
    windowSamples: 2 * Math.max(1, Math.round((0.5 * s.periodsPerWindow * fs) / s.floor)),
    firstOffset: 0,
    lastLag: longestLag + 2,
    lastPeakLag: longestLag,
    meanReach: Math.round(longestPeriodSamples),
    peakFirst: -Math.round(0.5 * longestPeriodSamples),
    peakLast: Math.round(0.5 * longestPeriodSamples),
    depth: s.veryAccurate ? 700 : 70,
  };
};

/**
 * The layout of a cc analysis, as measured on Praat (docs/acoustics.md, "cc-extent.praat" and
 * "peak-extent.praat"): with L the floor's period in samples, the window is 2·(⌊L/2⌋ − 1) samples, its
 * first sample ⌈L⌉ samples before the sample nearest the frame's centre; candidates' lags run up to one
 * less than the window; the local peak is taken over a window's length of samples around the centre,
 * the local mean over the 2·⌊L⌋ samples from ⌊L⌋ before it.
 */
const ccLayout = (fs: number, s: PitchSettings): FrameLayout => {
  const longestPeriodSamples = (s.periodsPerWindow * fs) / s.floor;
  const half = Math.max(2, Math.floor(0.5 * longestPeriodSamples) - 1);
  return {
    fs,
    windowSamples: 2 * half,
    firstOffset: Math.ceil(longestPeriodSamples),
    lastLag: 2 * half,
    lastPeakLag: 2 * half - 1,
    meanReach: Math.floor(longestPeriodSamples),
    peakFirst: 1 - half,
    peakLast: half,
    depth: s.veryAccurate ? 700 : 70,
  };
};

/** The mean of the samples from index first to index last (those inside the signal). */
const meanBetween = (x: Float32Array, first: number, last: number): number => {
  const from = Math.max(0, first);
  const to = Math.min(x.length - 1, last);
  let sum = 0;
  for (let k = from; k <= to; k++) sum += x[k]!;
  return to >= from ? sum / (to - from + 1) : 0;
};

/** x[k], or 0 outside the signal. */
const sampleOrZero = (x: Float32Array, k: number): number => (k >= 0 && k < x.length ? x[k]! : 0);

/** The mean of the samples within `reach` samples of `centre` (those inside the signal). */
const localMean = (x: Float32Array, centre: number, reach: number): number =>
  meanBetween(x, centre - reach, centre + reach);

/** The largest |value| of seg from index first to index last. */
const peakBetween = (seg: Float64Array, first: number, last: number): number => {
  let peak = 0;
  for (let k = Math.max(0, first); k <= Math.min(seg.length - 1, last); k++)
    peak = Math.max(peak, Math.abs(seg[k]!));
  return peak;
};

/** The sample index nearest to a frame's centre. */
const centreSample = (t: number, fs: number): number => Math.round(t * fs - 0.5);

/** The sample nearest to a frame's centre, the earlier of two at a tie (measured, cc-extent.praat). */
const nearestSampleEarlier = (t: number, fs: number): number => Math.ceil(t * fs - 1);

/**
 * The cc correlation of one frame (Praat's manual, "Sound: To Pitch (cc)...": a forward
 * cross-correlation): the window placed as ccLayout says, the local mean subtracted,
 * against the same number of samples τ later, normalised by the energies of both (Boersma 1993,
 * eq. 11 without the window). Returns the local peak of the frame; r is filled for τ = 0..lastLag.
 */
const ccFrame = (
  x: Float32Array,
  t: number,
  layout: FrameLayout,
  seg: Float64Array,
  products: Float64Array,
  r: Float64Array,
): number => {
  const n = layout.windowSamples;
  const centre = nearestSampleEarlier(t, layout.fs);
  const mean = meanBetween(x, centre - layout.meanReach, centre + layout.meanReach - 1);
  const start = centre - layout.firstOffset;
  for (let j = 0; j < seg.length; j++) seg[j] = sampleOrZero(x, start + j) - mean;
  const localPeak = peakBetween(seg, centre - start + layout.peakFirst, centre - start + layout.peakLast);
  crossProducts(seg, n, layout.lastLag, products);
  let energyFirst = 0;
  for (let j = 0; j < n; j++) energyFirst += seg[j]! * seg[j]!;
  let energyLagged = energyFirst;
  r[0] = 1;
  for (let lag = 1; lag <= layout.lastLag; lag++) {
    energyLagged += seg[lag + n - 1]! * seg[lag + n - 1]! - seg[lag - 1]! * seg[lag - 1]!;
    const norm = energyFirst * energyLagged;
    r[lag] = norm > 0 ? products[lag]! / Math.sqrt(norm) : 0;
  }
  return localPeak;
};

/** The Hanning window of n samples, sampled at the samples' centres. */
const hanning = (n: number): Float64Array =>
  Float64Array.from({ length: n }, (_, j) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (j + 0.5)) / n));

/**
 * One ac frame's windowed samples (Boersma 1993, section 2: the local mean subtracted, then the Hanning
 * window) into `windowed`; returns the frame's local peak, read after the window.
 */
const windowedAcFrame = (
  x: Float32Array,
  t: number,
  layout: FrameLayout,
  window: Float64Array,
  windowed: Float64Array,
): number => {
  const n = layout.windowSamples;
  const centre = centreSample(t, layout.fs);
  const mean = localMean(x, centre, layout.meanReach);
  const start = centre - n / 2 + 1;
  for (let j = 0; j < n; j++) windowed[j] = (sampleOrZero(x, start + j) - mean) * window[j]!;
  return peakBetween(windowed, centre - start + layout.peakFirst, centre - start + layout.peakLast);
};

/**
 * r(τ) of a windowed frame from its autocorrelation: normalised by its value at 0 and divided by the
 * window's own normalised autocorrelation (Boersma 1993, eq. 9).
 */
const normalisedAutocorrelation = (acf: Float64Array, windowAcf: Float64Array, r: Float64Array): void => {
  const zero = acf[0]!;
  for (let lag = 0; lag < r.length; lag++) r[lag] = zero > 0 ? acf[lag]! / zero / windowAcf[lag]! : 0;
};

/** The ac candidates of every frame, two frames to one complex FFT. */
const acCandidates = (
  x: Float32Array,
  s: PitchSettings,
  grid: FrameGrid,
  layout: FrameLayout,
): Candidates[] => {
  const n = layout.windowSamples;
  const size = nextPow2(n + layout.lastLag + 1);
  const window = hanning(n);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const acfA = new Float64Array(size);
  const acfB = new Float64Array(size);
  autocorrelatePair(window, new Float64Array(n), re, im, acfA, acfB);
  const windowAcf = Float64Array.from(acfA.subarray(0, layout.lastLag + 1), (v) => v / acfA[0]!);
  const globalPeak = globalPeakOf(x);
  const first = new Float64Array(n);
  const second = new Float64Array(n);
  const r = new Float64Array(layout.lastLag + 1);
  const frames: Candidates[] = [];
  for (let i = 0; i < grid.count; i += 2) {
    const peakFirst = windowedAcFrame(x, frameTime(grid, i), layout, window, first);
    const hasSecond = i + 1 < grid.count;
    const peakSecond = hasSecond ? windowedAcFrame(x, frameTime(grid, i + 1), layout, window, second) : 0;
    if (!hasSecond) second.fill(0);
    autocorrelatePair(first, second, re, im, acfA, acfB);
    normalisedAutocorrelation(acfA, windowAcf, r);
    frames.push(candidatesOfFrame(r, peakFirst, globalPeak, s, layout));
    if (!hasSecond) break;
    normalisedAutocorrelation(acfB, windowAcf, r);
    frames.push(candidatesOfFrame(r, peakSecond, globalPeak, s, layout));
  }
  return frames;
};

/** The cc candidates of every frame. */
const ccCandidates = (
  x: Float32Array,
  s: PitchSettings,
  grid: FrameGrid,
  layout: FrameLayout,
): Candidates[] => {
  const seg = new Float64Array(layout.windowSamples + layout.lastLag + 4);
  const products = new Float64Array(layout.lastLag + 1);
  const r = new Float64Array(layout.lastLag + 1);
  const globalPeak = globalPeakOf(x);
  const frames: Candidates[] = [];
  for (let i = 0; i < grid.count; i++) {
    const localPeak = ccFrame(x, frameTime(grid, i), layout, seg, products, r);
    frames.push(candidatesOfFrame(r, localPeak, globalPeak, s, layout));
  }
  return frames;
};

/** The correlation candidates of every frame, before the path finder. */
export const frameCandidates = (
  x: Float32Array,
  fs: number,
  s: PitchSettings,
  grid: FrameGrid,
): Candidates[] => {
  const layout = s.method === 'cc' ? ccLayout(fs, s) : acLayout(fs, s);
  return s.method === 'cc' ? ccCandidates(x, s, grid, layout) : acCandidates(x, s, grid, layout);
};

/** Viterbi path through the candidates (Praat's manual, "Pitch: path finder"). */
export const pathFinder = (frames: Candidates[], s: PitchSettings, dt: number): number[] => {
  const n = frames.length;
  if (n === 0) return [];
  const corr = 0.01 / dt;
  const vuv = s.voicedUnvoicedCost * corr;
  const oj = s.octaveJumpCost * corr;
  const score: Float64Array[] = [];
  const back: Int32Array[] = [];
  score.push(Float64Array.from(frames[0]!.strength));
  back.push(new Int32Array(frames[0]!.freq.length));
  for (let i = 1; i < n; i++) {
    const prev = frames[i - 1]!;
    const cur = frames[i]!;
    const ps = score[i - 1]!;
    const sc = new Float64Array(cur.freq.length);
    const bk = new Int32Array(cur.freq.length);
    for (let j = 0; j < cur.freq.length; j++) {
      const fj = cur.freq[j]!;
      let best = -Infinity;
      let arg = 0;
      for (let k = 0; k < prev.freq.length; k++) {
        const fk = prev.freq[k]!;
        const cost =
          fj === 0 && fk === 0 ? 0 : fj === 0 || fk === 0 ? vuv : oj * Math.abs(Math.log2(fj / fk));
        const v = ps[k]! - cost;
        if (v > best) {
          best = v;
          arg = k;
        }
      }
      sc[j] = best + cur.strength[j]!;
      bk[j] = arg;
    }
    score.push(sc);
    back.push(bk);
  }
  const path = new Array<number>(n);
  const last = score[n - 1]!;
  let arg = 0;
  for (let j = 1; j < last.length; j++) if (last[j]! > last[arg]!) arg = j;
  for (let i = n - 1; i >= 0; i--) {
    path[i] = arg;
    arg = back[i]![arg]!;
  }
  return path;
};

/** The pitch track of a mono signal. */
export const toPitch = (x: Float32Array, fs: number, s: PitchSettings): PitchTrack => {
  const dt = s.timeStep > 0 ? s.timeStep : s.periodsPerWindow / s.floor / 4;
  const windowSeconds = s.periodsPerWindow / s.floor + (s.method === 'cc' ? 1 / s.floor : 0);
  const grid = frameGrid(x.length, fs, windowSeconds, dt);
  const frames = frameCandidates(x, fs, s, grid);
  const path = pathFinder(frames, s, dt);
  const f0 = new Float64Array(grid.count);
  const strength = new Float64Array(grid.count);
  for (let i = 0; i < grid.count; i++) {
    const c = frames[i]!;
    const j = path[i]!;
    f0[i] = c.freq[j]!;
    strength[i] = c.r[j]!;
  }
  return { grid, f0, strength };
};
