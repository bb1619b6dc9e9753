/**
 * The vocabulary of local acoustic measures: every key once, with its unit, a label and the algorithm it
 * follows. The codebook, the CLI, the exports and the recording page derive from this object (shared/:
 * the renderer reads it too).
 */
export const MEASURES = {
  f0_mean_hz: {
    unit: 'Hz',
    label: 'Mean F0',
    algorithm: 'Mean over voiced frames of To Pitch (cc) (Boersma 1993; Praat path finder, default costs)',
  },
  f0_median_hz: {
    unit: 'Hz',
    label: 'Median F0',
    algorithm: 'Median (0.5 quantile) of the same voiced frames',
  },
  f0_sd_hz: { unit: 'Hz', label: 'F0 standard deviation', algorithm: 'Sample SD of the same voiced frames' },
  f0_sd_st: {
    unit: 'st',
    label: 'F0 standard deviation (semitones)',
    algorithm: 'Sample SD of 12·log2(F0) over the same voiced frames',
  },
  f0_min_hz: { unit: 'Hz', label: 'Minimum F0', algorithm: 'Lowest voiced frame of the same track' },
  f0_max_hz: { unit: 'Hz', label: 'Maximum F0', algorithm: 'Highest voiced frame of the same track' },
  jitter_local_pct: {
    unit: '%',
    label: 'Jitter (local)',
    algorithm:
      'Mean |T(i) − T(i−1)| / mean T over pulses of To PointProcess (periodic, cc); periods 0.0001–0.02 s, factor 1.3',
  },
  shimmer_local_pct: {
    unit: '%',
    label: 'Shimmer (local)',
    algorithm:
      'Mean |A(i) − A(i−1)| / mean A, highest sample per period as its amplitude; periods 0.0001–0.02 s, factors 1.3 and 1.6',
  },
  shimmer_local_db: {
    unit: 'dB',
    label: 'Shimmer (local, dB)',
    algorithm: 'Mean |20·log10(A(i) / A(i−1))| over the same period pairs',
  },
  hnr_db: {
    unit: 'dB',
    label: 'Harmonics-to-noise ratio',
    algorithm: 'Mean over voiced frames of To Harmonicity (cc): 0.01 s, pitch floor, silence 0.1, 1 period',
  },
  cpps_db: {
    unit: 'dB',
    label: 'Smoothed cepstral peak prominence (CPPS)',
    algorithm:
      'Mean over frames of the cepstral peak (60–330 Hz) above its robust straight trend line (Theil; 1 ms up), power cepstrogram at 60 Hz, 0.002 s, 5000 Hz, pre-emphasis 50 Hz, smoothed 0.01 s and 0.001 s (Hillenbrand & Houde 1996; settings of Maryn & Weenink 2015)',
  },
  intensity_mean_db: {
    unit: 'dB',
    label: 'Mean intensity',
    algorithm: 'Energy average of To Intensity (minimum pitch 100 Hz, subtract mean), dB re 2·10⁻⁵',
  },
  intensity_sd_db: { unit: 'dB', label: 'Intensity SD', algorithm: 'Sample SD of the same intensity frames' },
  f1_mean_hz: {
    unit: 'Hz',
    label: 'Mean F1',
    algorithm: 'Mean over frames of To Formant (burg): 5 formants up to 5500 Hz, 0.025 s, pre-emphasis 50 Hz',
  },
  f2_mean_hz: { unit: 'Hz', label: 'Mean F2', algorithm: 'As F1, second formant' },
  f3_mean_hz: { unit: 'Hz', label: 'Mean F3', algorithm: 'As F1, third formant' },
  voiced_fraction: {
    unit: 'ratio',
    label: 'Voiced fraction',
    algorithm: 'Voiced frames / all frames of the To Pitch (cc) track',
  },
  pause_count: {
    unit: 'count',
    label: 'Pauses',
    algorithm:
      'Silent intervals between sounding ones, To TextGrid (silences): 100 Hz, −25 dB re max, silent ≥ 0.25 s, sounding ≥ 0.1 s',
  },
  pause_mean_s: { unit: 's', label: 'Mean pause duration', algorithm: 'Mean duration of the same pauses' },
  pause_sd_s: { unit: 's', label: 'Pause duration SD', algorithm: 'Sample SD of the same pauses' },
  speech_seconds: {
    unit: 's',
    label: 'Speech time',
    algorithm: 'Total duration of the sounding intervals of the same TextGrid',
  },
  phonation_ratio: {
    unit: 'ratio',
    label: 'Phonation ratio',
    algorithm: 'Speech time / time from the first sounding onset to the last sounding offset',
  },
} as const;

export type MeasureKey = keyof typeof MEASURES;
export const MEASURE_KEYS = Object.keys(MEASURES) as readonly MeasureKey[];
export type Measures = Record<MeasureKey, number | null>;

/**
 * A local measure's name wherever it is shown beside the service's measures (the timeline's picker, chart
 * titles and values table, the exports' column titles and codebook): its label and that it was computed
 * here, so the service's "Harmonics-to-noise ratio" and this one's are told apart.
 */
export const localMeasureName = (key: MeasureKey): string => `${MEASURES[key].label}, computed here`;
