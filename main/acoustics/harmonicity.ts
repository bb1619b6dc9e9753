/**
 * Harmonics-to-noise ratio, as Praat's manual describes "Sound: To Harmonicity (cc)..." and Boersma
 * (1993, section 4) derives it: the periodicity analysis of To Pitch (cc) with a window of
 * `periodsPerWindow` periods of the pitch floor, every lag up to the Nyquist frequency allowed, no
 * voicing threshold and no path costs (each frame keeps its strongest candidate), candidates refined on
 * the sinc-interpolated correlation of depth 700 (the "accurate" variant). A frame whose correlation at
 * its best lag is r has HNR = 10·log10(r / (1 − r)) dB (paper, eq. 4: the harmonic energy is r of the
 * total, the noise 1 − r). A frame judged silent gets the value Praat's Harmonicity reports there,
 * −200 dB (experiment in docs/acoustics.md), and is left out of the mean ("Harmonicity: Get mean...").
 */
import { toPitch, type PitchSettings } from './pitch';

/** The value of a silent frame, as Praat reports it (scripts/validation/experiments/hnr-limits.praat). */
export const UNVOICED_HNR_DB = -200;

/**
 * r/(1 − r) stays finite: a correlation is kept at least one double-precision step away from 0 and 1,
 * which bounds the ratio at about ±156 dB (an exactly periodic signal reads far less, about 60 dB).
 */
const CORRELATION_MARGIN = Number.EPSILON;

/** The harmonics-to-noise ratio in dB of a frame whose best normalised correlation is r. */
export const hnrDbFromCorrelation = (r: number): number => {
  const periodic = Math.min(Math.max(r, CORRELATION_MARGIN), 1 - CORRELATION_MARGIN);
  return 10 * Math.log10(periodic / (1 - periodic));
};

const harmonicitySettings = (
  fs: number,
  timeStep: number,
  minPitch: number,
  silenceThreshold: number,
  periodsPerWindow: number,
): PitchSettings => ({
  method: 'cc',
  timeStep,
  floor: minPitch,
  ceiling: fs / 2,
  maxCandidates: 15,
  silenceThreshold,
  voicingThreshold: 0,
  octaveCost: 0,
  octaveJumpCost: 0,
  voicedUnvoicedCost: 0,
  periodsPerWindow,
  veryAccurate: true,
});

/** HNR per frame in dB (UNVOICED_HNR_DB where the frame is silent); defaults as Praat's form has them. */
export const toHarmonicity = (
  x: Float32Array,
  fs: number,
  timeStep = 0.01,
  minPitch = 75,
  silenceThreshold = 0.1,
  periodsPerWindow = 1,
): Float64Array => {
  const track = toPitch(
    x,
    fs,
    harmonicitySettings(fs, timeStep, minPitch, silenceThreshold, periodsPerWindow),
  );
  return track.f0.map((f0, i) => (f0 > 0 ? hnrDbFromCorrelation(track.strength[i]!) : UNVOICED_HNR_DB));
};

/** The mean HNR over the frames that are not silent, or null when every frame is. */
export const meanHnr = (hnr: Float64Array): number | null => {
  let s = 0;
  let n = 0;
  for (const v of hnr) {
    if (v === UNVOICED_HNR_DB) continue;
    s += v;
    n++;
  }
  return n > 0 ? s / n : null;
};
