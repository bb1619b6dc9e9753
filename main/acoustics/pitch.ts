/**
 * Periodicity analysis after Boersma (1993), "Accurate short-term analysis of the fundamental frequency
 * and the harmonics-to-noise ratio of a sampled sound", IFA Proceedings 17, and Praat's manual pages
 * "Sound: To Pitch (ac)...", "Sound: To Pitch (cc)..." and "Pitch: path finder".
 *
 * Per frame: candidates are the local maxima of the normalised correlation r(τ) of the signal over lags
 * between 1/ceiling and 1/floor, their lag refined by parabolic interpolation. A voiced candidate's
 * strength is r − octaveCost · log2(ceiling / f) (favouring higher frequencies, as the paper's eq. 24, but
 * reckoned from the ceiling: see pickPeaks); the
 * unvoiced candidate's strength is voicingThreshold + max(0, 2 − (localPeak / globalPeak) /
 * (silenceThreshold / (1 + voicingThreshold))). A Viterbi path then picks one candidate per frame,
 * maximising total strength minus transition costs: voicedUnvoicedCost for a voicing change and
 * octaveJumpCost · |log2(f₁ / f₂)| between voiced frames, both scaled by 0.01 s / time step.
 *
 * Two correlation methods: `cc` (forward cross-correlation of a window of `periodsPerWindow` / floor
 * seconds with the same length of signal τ later, normalised by both energies; no taper) and `ac`
 * (autocorrelation of a Hanning-windowed frame of `periodsPerWindow` / floor seconds, divided by the
 * autocorrelation of the window itself, the paper's eq. 9).
 */
import { fft, nextPow2 } from './fft';
import { frameGrid, frameTime, sampleAt, type FrameGrid } from './frames';

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

/** Copies x[start, start + n) with zeros outside the signal, minus the copy's mean. Returns the local peak too. */
const segment = (x: Float32Array, start: number, n: number): { y: Float64Array; peak: number } => {
  const y = new Float64Array(n);
  let mean = 0;
  for (let j = 0; j < n; j++) {
    const k = start + j;
    const v = k >= 0 && k < x.length ? x[k]! : 0;
    y[j] = v;
    mean += v;
  }
  mean /= n;
  let peak = 0;
  for (let j = 0; j < n; j++) {
    const v = y[j]! - mean;
    y[j] = v;
    const a = Math.abs(v);
    if (a > peak) peak = a;
  }
  return { y, peak };
};

/** Picks correlation peaks in r over lags [minLag, maxLag] into candidates (strongest first, at most max − 1). */
const pickPeaks = (
  r: Float64Array,
  minLag: number,
  maxLag: number,
  fs: number,
  s: PitchSettings,
  out: Candidates,
): void => {
  const found: { f: number; r: number; strength: number }[] = [];
  const minR = 0.5 * s.voicingThreshold;
  for (let lag = Math.max(minLag, 1); lag <= maxLag && lag + 1 < r.length; lag++) {
    const c = r[lag]!;
    const a = r[lag - 1]!;
    const b = r[lag + 1]!;
    if (!(c > a && c >= b) || c <= minR) continue;
    const den = a - 2 * c + b;
    const d = den < 0 ? (0.5 * (a - b)) / den : 0;
    const tau = lag + d;
    let rr = c - 0.25 * (a - b) * d;
    if (rr > 1) rr = 1 / rr; // an interpolated peak above 1 is an artefact of the parabola: reflect it into [0, 1]
    const f = fs / tau;
    if (f < s.floor || f > s.ceiling) continue;
    // The octave cost is reckoned from the ceiling (r − octaveCost · log2(ceiling / f)): the paper's eq. 24
    // writes it from the floor, but fed Praat's own candidates (saved Pitch objects of the real-speech
    // clips), our path finder reproduces Praat's voicing decisions best with the ceiling (about 40 %
    // fewer frames voiced only by us, none lost), so the offset against the unvoiced candidate is Praat's.
    found.push({ f, r: rr, strength: rr - s.octaveCost * Math.log2(s.ceiling / f) });
  }
  found.sort((p, q) => q.strength - p.strength);
  for (const c of found.slice(0, s.maxCandidates - 1)) {
    out.freq.push(c.f);
    out.r.push(c.r);
    out.strength.push(c.strength);
  }
};

/** The correlation candidates of every frame, before the path finder. */
export const frameCandidates = (
  x: Float32Array,
  fs: number,
  s: PitchSettings,
  grid: FrameGrid,
): Candidates[] => {
  const globalPeak = globalPeakOf(x);
  const nWindow = Math.round((s.periodsPerWindow / s.floor) * fs);
  const maxLag = Math.min(Math.ceil(fs / s.floor), nWindow * (s.method === 'ac' ? 1 : 4));
  const minLag = Math.max(2, Math.floor(fs / s.ceiling));
  const frames: Candidates[] = [];
  const unvoicedStrength = (localPeak: number): number =>
    s.voicingThreshold +
    Math.max(
      0,
      2 -
        (globalPeak > 0 ? localPeak / globalPeak : 0) /
          (s.silenceThreshold / (1 + s.voicingThreshold) || 1e-30),
    );

  if (s.method === 'cc') {
    const n = nWindow + maxLag + 2;
    const r = new Float64Array(maxLag + 2);
    const cum = new Float64Array(n + 1);
    for (let i = 0; i < grid.count; i++) {
      const centre = sampleAt(frameTime(grid, i), fs);
      const start = centre - Math.floor((nWindow + maxLag) / 2);
      const { y } = segment(x, start, n);
      // The local peak is taken over one window centred on the frame, not the whole lag span.
      const mid = Math.floor((nWindow + maxLag) / 2) - Math.floor(nWindow / 2);
      let peak = 0;
      for (let j = mid; j < mid + nWindow; j++) peak = Math.max(peak, Math.abs(y[j]!));
      const c: Candidates = { freq: [0], r: [0], strength: [unvoicedStrength(peak)] };
      frames.push(c);
      if (peak === 0) continue;
      cum[0] = 0;
      for (let j = 0; j < n; j++) cum[j + 1] = cum[j]! + y[j]! * y[j]!;
      const e0 = cum[nWindow]!;
      r.fill(0);
      for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
        let acc = 0;
        for (let j = 0; j < nWindow; j++) acc += y[j]! * y[j + lag]!;
        const e = cum[lag + nWindow]! - cum[lag]!;
        r[lag] = e0 > 0 && e > 0 ? acc / Math.sqrt(e0 * e) : 0;
      }
      pickPeaks(r, minLag, maxLag, fs, s, c);
    }
    return frames;
  }

  // ac: Hanning window, autocorrelation by FFT, divided by the window's own autocorrelation.
  const nfft = nextPow2(2 * nWindow);
  const win = new Float64Array(nWindow);
  for (let j = 0; j < nWindow; j++) win[j] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (j + 0.5)) / nWindow);
  const wre = new Float64Array(nfft);
  const wim = new Float64Array(nfft);
  wre.set(win);
  fft(wre, wim);
  for (let k = 0; k < nfft; k++) {
    wre[k] = wre[k]! * wre[k]! + wim[k]! * wim[k]!;
    wim[k] = 0;
  }
  fft(wre, wim, true);
  const rw0 = wre[0]!;
  const re = new Float64Array(nfft);
  const im = new Float64Array(nfft);
  const r = new Float64Array(maxLag + 2);
  const lagLimit = Math.min(maxLag + 1, Math.floor(nWindow / 2));
  for (let i = 0; i < grid.count; i++) {
    const centre = sampleAt(frameTime(grid, i), fs);
    const { y, peak } = segment(x, centre - Math.floor(nWindow / 2), nWindow);
    const c: Candidates = { freq: [0], r: [0], strength: [unvoicedStrength(peak)] };
    frames.push(c);
    if (peak === 0) continue;
    re.fill(0);
    im.fill(0);
    for (let j = 0; j < nWindow; j++) re[j] = y[j]! * win[j]!;
    fft(re, im);
    for (let k = 0; k < nfft; k++) {
      re[k] = re[k]! * re[k]! + im[k]! * im[k]!;
      im[k] = 0;
    }
    fft(re, im, true);
    const r0 = re[0]!;
    r.fill(0);
    if (r0 <= 0) continue;
    for (let lag = 0; lag <= lagLimit; lag++) r[lag] = re[lag]! / r0 / (wre[lag]! / rw0);
    pickPeaks(r, minLag, Math.min(maxLag, lagLimit - 1), fs, s, c);
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
