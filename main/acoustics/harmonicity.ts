/**
 * Harmonics-to-noise ratio as "Sound: To Harmonicity (cc)..." in Praat's manual and Boersma (1993):
 * a cross-correlation periodicity analysis (no path costs, no voicing threshold, ceiling at the
 * Nyquist frequency, candidates refined with depth-700 sinc interpolation, the "accurate" cc) whose best
 * candidate's correlation r gives HNR = 10·log10(r / (1 − r)) per frame, clipped to ±150 dB; frames
 * judged silent (unvoiced) read −200 dB and are left out of the mean.
 */
import { toPitch, type PitchSettings } from './pitch';

export const UNVOICED_HNR_DB = -200;

export const toHarmonicity = (
  x: Float32Array,
  fs: number,
  timeStep = 0.01,
  minPitch = 75,
  silenceThreshold = 0.1,
  periodsPerWindow = 1,
): Float64Array => {
  const s: PitchSettings = {
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
  };
  const track = toPitch(x, fs, s);
  const out = new Float64Array(track.grid.count);
  for (let i = 0; i < out.length; i++) {
    const r = track.strength[i]!;
    out[i] =
      track.f0[i]! > 0
        ? r <= 1e-15
          ? -150
          : r > 1 - 1e-15
            ? 150
            : 10 * Math.log10(r / (1 - r))
        : UNVOICED_HNR_DB;
  }
  return out;
};

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
