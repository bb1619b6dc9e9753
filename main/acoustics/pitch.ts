/**
 * Periodicity analysis after Boersma (1993), "Accurate short-term analysis of the fundamental frequency
 * and the harmonics-to-noise ratio of a sampled sound", IFA Proceedings 17, and Praat's manual pages
 * "Sound: To Pitch (ac)...", "Sound: To Pitch (cc)..." and "Pitch: path finder".
 *
 * Per frame: candidates are the local maxima of the normalised correlation r(τ) of the signal (see
 * registerPeaks for their refinement by sinc interpolation). A voiced candidate's strength is
 * r − octaveCost · log2(ceiling / f) (favouring higher frequencies); a candidate at or above the ceiling
 * counts as unvoiced; the unvoiced candidate's strength is voicingThreshold + max(0, 2 − (localPeak /
 * globalPeak) / (silenceThreshold / (1 + voicingThreshold))). A Viterbi path then picks one candidate
 * per frame, maximising total strength minus transition costs: voicedUnvoicedCost for a voicing change
 * and octaveJumpCost · |log2(f₁ / f₂)| between voiced frames, both scaled by 0.01 s / time step.
 *
 * Two correlation methods: `cc` (forward cross-correlation of a window of `periodsPerWindow` / floor
 * seconds with the same length of signal τ later, normalised by both energies; no taper) and `ac`
 * (autocorrelation of a Hanning-windowed frame of `periodsPerWindow` / floor seconds, divided by the
 * autocorrelation of the window itself, the paper's eq. 9).
 */
import { fft, nextPow2 } from './fft';
import { frameGrid, frameTime, type FrameGrid } from './frames';
import { improveMaximum, interpolateSinc } from './interpolation';

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

/**
 * Registers the correlation maxima of one frame as candidates, as Boersma (1993) and Praat's manual
 * describe: every local maximum of r above half the voicing threshold, its lag first refined by a
 * parabola and its strength read from the sinc-interpolated correlation there (values above 1, an
 * artefact of short windows, reflected to 1/r); when there are more maxima than places, a maximum takes
 * the place of the weakest candidate if it is stronger after the octave cost (reckoned from the floor);
 * finally each candidate's lag and strength are refined to the maximum of the sinc-interpolated curve
 * (depth 70). Candidates above the ceiling are kept here; the path finder treats them as unvoiced.
 * `rr` holds r at lags −B..B at indices 0..2B (B = `brentMax`).
 */
const registerPeaks = (
  rr: Float64Array,
  brentMax: number,
  maximumLag: number,
  maxCandidates: number,
  fs: number,
  s: PitchSettings,
  ceiling: number,
  out: Candidates,
): void => {
  const r = (lag: number): number => rr[lag + brentMax]!;
  const lags: number[] = [];
  for (let i = 2; i < maximumLag && i < brentMax; i++) {
    const c = r(i);
    if (!(c > 0.5 * s.voicingThreshold && c > r(i - 1) && c >= r(i + 1))) continue;
    const dr = 0.5 * (r(i + 1) - r(i - 1));
    const d2r = c - r(i - 1) + (c - r(i + 1));
    const f = fs / (i + dr / d2r);
    let strength = interpolateSinc(rr, fs / f + brentMax, 30);
    if (strength > 1) strength = 1 / strength;
    let place = -1;
    if (out.freq.length < maxCandidates) {
      out.freq.push(0);
      out.r.push(0);
      out.strength.push(0);
      lags.push(0);
      place = out.freq.length - 1;
    } else {
      let weakest = 2;
      for (let k = 1; k < out.freq.length; k++) {
        const local = out.r[k]! - s.octaveCost * Math.log2(s.floor / out.freq[k]!);
        if (local < weakest) {
          weakest = local;
          place = k;
        }
      }
      if (strength - s.octaveCost * Math.log2(s.floor / f) <= weakest) place = -1;
    }
    if (place > 0) {
      out.freq[place] = f;
      out.r[place] = strength;
      lags[place - 1] = i;
    }
  }
  const refine = (k: number): void => {
    // The refined lag stays within one sample of the sampled maximum, so a candidate whose frequency is
    // at or above the ceiling even one sample further on is unvoiced whatever the refinement gives.
    if (fs / (lags[k - 1]! + 1) >= ceiling) {
      out.freq[k] = 0;
      out.r[k] = 0;
      out.strength[k] = out.strength[0]!;
      return;
    }
    const depth = s.veryAccurate === true || out.freq[k]! > 0.3 * fs ? 700 : 70;
    const { x, y } = improveMaximum(rr, lags[k - 1]! + brentMax, depth);
    const f = fs / (x - brentMax);
    const strength = y > 1 ? 1 / y : y;
    // The path finder's strengths: a candidate at or above the ceiling counts as one more unvoiced one.
    const voiced = f > 0 && f < ceiling;
    out.freq[k] = voiced ? f : 0;
    out.r[k] = voiced ? strength : 0;
    out.strength[k] = voiced ? strength - s.octaveCost * Math.log2(ceiling / f) : out.strength[0]!;
  };
  if (!independentFrames(s)) {
    for (let k = 1; k < out.freq.length; k++) refine(k);
    return;
  }
  // Without path costs each frame simply takes its strongest candidate (strength = r), so candidates are
  // refined strongest first, and one whose first estimate is more than REFINEMENT_MARGIN below the best
  // refined strength so far is left out (see the margin's comment).
  const order = Array.from({ length: out.freq.length - 1 }, (_, i) => i + 1).sort(
    (a, b) => out.r[b]! - out.r[a]!,
  );
  let best = out.strength[0]!;
  for (const k of order) {
    if (out.r[k]! + REFINEMENT_MARGIN < best) {
      out.freq[k] = 0;
      out.r[k] = 0;
      out.strength[k] = -Infinity;
      continue;
    }
    refine(k);
    if (out.strength[k]! > best) best = out.strength[k]!;
  }
};

/**
 * How much the sinc refinement may raise a candidate's strength above its first estimate before the
 * frame's choice could change, for frames without path costs (harmonicity). The rise is usually
 * below 0.001, but in noisy frames of 8 kHz recordings, where the correlation holds energy near the
 * Nyquist frequency, the interpolated curve can overshoot its samples by up to 0.7 (measured on the
 * validation clips); such candidates seldom come out strongest. With a margin of 0.05, 4 of the
 * 16,908 harmonicity frames of the three 8 kHz clips changed; with 0.1 or more none of the 21 clips'
 * frames did (docs/acoustics.md, "Speed"). A frame that misses a candidate this way takes the next
 * strongest one instead.
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
 * The correlation candidates of every frame, before the path finder. Frame layout as Praat's manual and
 * Boersma (1993) give it: the window is `periodsPerWindow` / floor long (an even number of samples),
 * centred on the frame; the local mean, taken over one longest period on each side of the frame's
 * centre, is subtracted; `ac` applies a Hanning window; the frame's local peak is taken over half a
 * longest period on each side of the centre (after windowing); `cc` correlates the window that starts
 * (1 / floor + window) / 2 before the centre with the same length of signal each lag later.
 */
export const frameCandidates = (
  x: Float32Array,
  fs: number,
  s: PitchSettings,
  grid: FrameGrid,
): Candidates[] => {
  const globalPeak = globalPeakOf(x);
  const ppw = s.periodsPerWindow;
  const nPeriod = Math.floor(fs / s.floor);
  const halfPeriod = Math.floor(nPeriod / 2) + 1;
  const halfWindow = Math.floor(Math.floor((ppw / s.floor) * fs) / 2) - 1;
  const nWindow = 2 * halfWindow;
  const maximumLag = Math.min(Math.floor(nWindow / ppw) + 2, nWindow);
  const brentMax = Math.floor(nWindow * (s.method === 'cc' ? 1 : 0.5));
  const maxCandidates = Math.max(s.maxCandidates, Math.floor(s.ceiling / s.floor));
  const at = (k: number): number => (k >= 0 && k < x.length ? x[k]! : 0);
  const frames: Candidates[] = [];
  const unvoicedStrength = (intensity: number): number =>
    s.voicingThreshold +
    Math.max(0, 2 - intensity / (s.silenceThreshold / (1 + s.voicingThreshold) || 1e-30));
  const rr = new Float64Array(2 * brentMax + 1);
  const frame = new Float64Array(nWindow);
  const seg = new Float64Array(maximumLag + nWindow);
  const products = new Float64Array(brentMax + 4);

  // ac: a Hanning window and its normalised autocorrelation.
  const nfft = s.method === 'ac' ? nextPow2(Math.ceil(nWindow * 1.5)) : 0;
  const win = new Float64Array(nWindow);
  for (let j = 0; j < nWindow; j++) win[j] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (j + 1)) / (nWindow + 1));
  const wre = new Float64Array(nfft);
  const wim = new Float64Array(nfft);
  if (s.method === 'ac') {
    wre.set(win);
    fft(wre, wim);
    for (let k = 0; k < nfft; k++) {
      wre[k] = wre[k]! * wre[k]! + wim[k]! * wim[k]!;
      wim[k] = 0;
    }
    fft(wre, wim, true);
  }
  const rw0 = wre[0] ?? 1;
  const re = new Float64Array(nfft);
  const im = new Float64Array(nfft);
  // ac: the autocorrelations of two frames come from one complex FFT (see autocorrelatePair); the
  // second one waits here for its frame.
  const acf = new Float64Array(nfft);
  const nextAcf = new Float64Array(nfft);
  const nextFrame = new Float64Array(nWindow);
  let nextAcfFrame = -1;

  /** Fills `dest` with frame i less its local mean (Hanning-windowed for ac); returns that mean. */
  const fillFrame = (i: number, dest: Float64Array): number => {
    const t = frameTime(grid, i);
    const leftSample = Math.floor(t * fs - 0.5);
    const rightSample = leftSample + 1;
    let localMean = 0;
    for (let k = rightSample - nPeriod; k <= leftSample + nPeriod; k++) localMean += at(k);
    localMean /= 2 * nPeriod;
    const start = rightSample - halfWindow;
    for (let j = 0; j < nWindow; j++)
      dest[j] = (at(start + j) - localMean) * (s.method === 'ac' ? win[j]! : 1);
    return localMean;
  };

  for (let i = 0; i < grid.count; i++) {
    const t = frameTime(grid, i);
    const localMean = fillFrame(i, frame);
    let localPeak = 0;
    for (let j = Math.max(0, halfWindow - halfPeriod); j < Math.min(nWindow, halfWindow + halfPeriod); j++)
      localPeak = Math.max(localPeak, Math.abs(frame[j]!));
    const intensity = localPeak > globalPeak ? 1 : globalPeak > 0 ? localPeak / globalPeak : 0;
    const c: Candidates = { freq: [0], r: [0], strength: [unvoicedStrength(intensity)] };
    frames.push(c);
    if (localPeak === 0) continue;
    rr.fill(0);
    rr[brentMax] = 1;
    if (s.method === 'cc') {
      const first = Math.max(0, Math.floor((t - 0.5 * (1 / s.floor + ppw / s.floor)) * fs - 0.5));
      const span = Math.min(maximumLag + nWindow, x.length - first);
      const localMaximumLag = span - nWindow;
      for (let j = 0; j < span; j++) seg[j] = x[first + j]! - localMean;
      let sumx2 = 0;
      for (let j = 0; j < nWindow; j++) sumx2 += seg[j]! * seg[j]!;
      const lastLag = Math.min(localMaximumLag, brentMax);
      crossProducts(seg, nWindow, lastLag, products);
      let sumy2 = sumx2;
      for (let lag = 1; lag <= lastLag; lag++) {
        const y0 = seg[lag - 1]!;
        const yz = seg[lag - 1 + nWindow]!;
        sumy2 += yz * yz - y0 * y0;
        const product = products[lag]!;
        const v = sumx2 > 0 && sumy2 > 0 ? product / Math.sqrt(sumx2 * sumy2) : 0;
        rr[brentMax + lag] = v;
        rr[brentMax - lag] = v;
      }
    } else {
      if (nextAcfFrame === i) acf.set(nextAcf);
      else {
        const paired = i + 1 < grid.count;
        if (paired) fillFrame(i + 1, nextFrame);
        else nextFrame.fill(0);
        autocorrelatePair(frame, nextFrame, re, im, acf, nextAcf);
        nextAcfFrame = paired ? i + 1 : -1;
      }
      const r0 = acf[0]!;
      if (!(r0 > 0)) continue;
      for (let lag = 1; lag <= brentMax; lag++) {
        const v = acf[lag]! / (r0 * (wre[lag]! / rw0));
        rr[brentMax + lag] = v;
        rr[brentMax - lag] = v;
      }
    }
    registerPeaks(rr, brentMax, maximumLag, maxCandidates, fs, s, Math.min(s.ceiling, fs / 2), c);
  }
  return frames;
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
