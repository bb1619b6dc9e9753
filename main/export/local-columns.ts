/**
 * The local acoustic measures and recording quality control in exports: long rows with `analysis` =
 * `local` and `measure` = the key of main/acoustics/measures.ts, wide columns `lm_<key>`, quality columns
 * `qc_*` per recording, and the codebook's section with units, settings and algorithm references. The
 * vocabulary (keys, units, labels, algorithms) is main/acoustics/measures.ts, written once.
 */
import { ENGINE } from '../acoustics/measure';
import { localMeasureName, MEASURE_KEYS, MEASURES, type MeasureKey } from '../acoustics/measures';
import { QUALITY_THRESHOLDS } from '../acoustics/quality';
import type { MeasuredSettings, StoredMeasurement } from '../db/repos/local-measures.repo';
import type { ExportColumn, RawValue } from './column';

/** The `analysis` of the long form's local rows. */
export const LOCAL_ANALYSIS = 'local';
export const LOCAL_PREFIX = 'lm_';

/** A local measure as the long form sees it (the fields its columns read, as a catalogue measure has them). */
export interface LocalMeasureDef {
  readonly key: MeasureKey;
  readonly analysis: typeof LOCAL_ANALYSIS;
  readonly kind: 'indicator';
  readonly valueType: 'number';
  readonly unit: string | null;
  readonly label: string;
  readonly meaning: string;
}

export const LOCAL_MEASURE_DEFS: readonly LocalMeasureDef[] = MEASURE_KEYS.map((key) => ({
  key,
  analysis: LOCAL_ANALYSIS,
  kind: 'indicator',
  valueType: 'number',
  // Ratios and counts have no unit, as the catalogue's unitless measures.
  unit: MEASURES[key].unit === 'ratio' || MEASURES[key].unit === 'count' ? null : MEASURES[key].unit,
  label: localMeasureName(key),
  meaning: MEASURES[key].algorithm,
}));

export const LOCAL_REFERENCES = [
  'Boersma, P. (1993). Accurate short-term analysis of the fundamental frequency and the harmonics-to-noise ratio of a sampled sound. Proceedings of the Institute of Phonetic Sciences 17, 97–110 (pitch and harmonicity).',
  'Boersma, P. & Weenink, D. Praat: doing phonetics by computer, manual pages "Sound: To Pitch (cc)...", "Sound: To PointProcess (periodic, cc)...", "Voice 2. Jitter", "Voice 3. Shimmer", "Sound: To Harmonicity (cc)...", "Sound: To Intensity...", "Sound: To Formant (burg)...", "Sound: To TextGrid (silences)...", "Sound: To PowerCepstrogram...", "PowerCepstrogram: Smooth...", "PowerCepstrogram: Get CPPS...".',
  'Hillenbrand, J. & Houde, R. A. (1996). Acoustic correlates of breathy vocal quality: dysphonic voices and continuous speech. Journal of Speech and Hearing Research 39, 311–321 (smoothed cepstral peak prominence, after Hillenbrand, Cleveland & Erickson 1994).',
  'Maryn, Y. & Weenink, D. (2015). Objective dysphonia measures in the program Praat: smoothed cepstral peak prominence and acoustic voice quality index. Journal of Voice 29, 35–43 (CPPS settings).',
] as const;

/** The long form's `analysis` and `analysis_state` of a recording's local rows. */
export interface LocalPairView {
  readonly type: typeof LOCAL_ANALYSIS;
  /** completed, or error when its audio could not be measured. */
  readonly state: 'completed' | 'error';
}

export const localPair = (m: StoredMeasurement): LocalPairView => ({
  type: LOCAL_ANALYSIS,
  state: m.problem === null ? 'completed' : 'error',
});

const settingsOf = (m: StoredMeasurement | null | undefined): MeasuredSettings => m?.settings ?? {};

const column = <C>(
  name: string,
  type: 'number' | 'integer' | 'string',
  title: string,
  description: string,
  get: (c: C) => RawValue,
  unit?: string | null,
  extra: { enum?: string[]; neutralised?: boolean } = {},
): ExportColumn<C> => ({
  name,
  type,
  title,
  description,
  required: false,
  neutralised: extra.neutralised ?? false,
  ...(unit ? { unit } : {}),
  ...(extra.enum ? { enum: extra.enum } : {}),
  get,
});

const NOT_MEASURED =
  'Empty when the recording was not measured locally (voicescope measure --study) or its audio could not be read.';

/** Wide columns: every local measure as `lm_<key>`, and the engine and pitch range they were computed with. */
export const localMeasureColumns = <
  C extends { readonly local?: StoredMeasurement | null },
>(): ExportColumn<C>[] => [
  ...LOCAL_MEASURE_DEFS.map((d) =>
    column<C>(
      `${LOCAL_PREFIX}${d.key}`,
      d.key === 'pause_count' ? 'integer' : 'number',
      d.label,
      `Computed on this machine from the recording's audio, not by the service. ${d.meaning}. Also empty when undefined for the recording (no voiced frame, no pause). ${NOT_MEASURED}`,
      (c) => c.local?.measures[d.key] ?? null,
      d.unit,
    ),
  ),
  column<C>(
    `${LOCAL_PREFIX}engine`,
    'string',
    'Local: engine',
    `The measurement engine and its version (${ENGINE.name} ${ENGINE.version} at the time of this export's code). ${NOT_MEASURED}`,
    (c) => c.local?.engineVersion ?? null,
  ),
  column<C>(
    `${LOCAL_PREFIX}pitch_floor_hz`,
    'number',
    'Local: pitch floor',
    `The pitch floor the F0, jitter, shimmer and harmonicity measures used (default 75 Hz). ${NOT_MEASURED}`,
    (c) => settingsOf(c.local).pitchFloor ?? null,
    'Hz',
  ),
  column<C>(
    `${LOCAL_PREFIX}pitch_ceiling_hz`,
    'number',
    'Local: pitch ceiling',
    `The pitch ceiling of the same measures (default 500 Hz). ${NOT_MEASURED}`,
    (c) => settingsOf(c.local).pitchCeiling ?? null,
    'Hz',
  ),
];

const T = QUALITY_THRESHOLDS;
const q = <C extends { readonly local?: StoredMeasurement | null }>(c: C) => c.local?.quality ?? null;

/** Quality-control columns of a recording (main/acoustics/quality.ts). */
export const qualityColumns = <
  C extends { readonly local?: StoredMeasurement | null },
>(): ExportColumn<C>[] => [
  column<C>(
    'qc_verdict',
    'string',
    'Recording quality',
    `good: nothing to note; usable: some noise (SNR below ${T.usableSnrDb} dB), some clipping (at least ${T.usableClipping * 100} % of samples), a peak below ${T.quietPeakDbfs} dBFS, a DC offset of ${T.dcOffset} or more, or silences of ${T.longSilenceSeconds} s or more; poor: noisy (SNR below ${T.poorSnrDb} dB), clipped (at least ${T.poorClipping * 100} % of samples), shorter than ${T.minSeconds} s or digital silence. ${NOT_MEASURED}`,
    (c) => q(c)?.verdict ?? null,
    null,
    { enum: ['good', 'usable', 'poor'] },
  ),
  column<C>(
    'qc_reasons',
    'string',
    'Recording quality: reasons',
    `Why the verdict is not good, separated by \`; \`; empty when good. ${NOT_MEASURED}`,
    (c) => {
      const r = q(c)?.reasons ?? [];
      return r.length === 0 ? null : r.join('; ');
    },
    null,
    { neutralised: true },
  ),
  column<C>(
    'qc_snr_db',
    'number',
    'Recording quality: SNR',
    `Signal-to-noise estimate: the 90th minus the 10th percentile of the levels of 20 ms frames. Empty when it cannot be estimated. ${NOT_MEASURED}`,
    (c) => q(c)?.snrDb ?? null,
    'dB',
  ),
  column<C>(
    'qc_clipping_ratio',
    'number',
    'Recording quality: clipping',
    `Share of samples at or above 0.999 of full scale (0 to 1). ${NOT_MEASURED}`,
    (c) => q(c)?.clippingRatio ?? null,
  ),
  column<C>(
    'qc_peak_dbfs',
    'number',
    'Recording quality: peak level',
    `Highest absolute sample, dB re full scale. ${NOT_MEASURED}`,
    (c) => q(c)?.peakDbfs ?? null,
    'dBFS',
  ),
  column<C>(
    'qc_rms_dbfs',
    'number',
    'Recording quality: RMS level',
    `Root mean square level of the whole recording, dB re full scale. ${NOT_MEASURED}`,
    (c) => q(c)?.rmsDbfs ?? null,
    'dBFS',
  ),
  column<C>(
    'qc_dc_offset',
    'number',
    'Recording quality: DC offset',
    `Mean sample value (full scale 1). ${NOT_MEASURED}`,
    (c) => q(c)?.dcOffset ?? null,
  ),
  column<C>(
    'qc_long_silences',
    'integer',
    'Recording quality: long silences',
    `Number of stretches of ${T.longSilenceSeconds} s or more, 40 dB below the speech level or digitally silent. ${NOT_MEASURED}`,
    (c) => q(c)?.longSilences ?? null,
  ),
  column<C>(
    'qc_long_silence_s',
    'number',
    'Recording quality: long silence time',
    `Total duration of those stretches. ${NOT_MEASURED}`,
    (c) => q(c)?.longSilenceSeconds ?? null,
    's',
  ),
];

/** The codebook's section on the local measures: what they are, their settings and references. */
export const localCodebookSection = (): string[] => [
  '## Local acoustic measures',
  '',
  `Measured on this machine from each recording's audio by ${ENGINE.name} (its version per recording in \`lm_engine\`), following Praat's published algorithms and checked against Praat 6.3 (docs/acoustics.md), not by the service. In the long form they are the rows with \`analysis\` = \`local\` and \`measure\` = the key below; in the wide form the columns \`lm_<key>\`. Settings (Praat's standard ones): pitch To Pitch (cc) within the recording's pitch range (\`lm_pitch_floor_hz\` to \`lm_pitch_ceiling_hz\`, default 75-500 Hz) with silence threshold 0.03, voicing 0.45, octave cost 0.01, octave-jump 0.35, voiced/unvoiced 0.14; jitter and shimmer with periods 0.0001-0.02 s, maximum period factor 1.3, maximum amplitude factor 1.6; harmonicity 0.01 s, silence 0.1, 1 period; intensity with minimum pitch 100 Hz, mean subtracted, energy average; formants Burg, 5 formants up to 5500 Hz, window 0.025 s, pre-emphasis from 50 Hz; pauses from silences at -25 dB re the maximum, silent at least 0.25 s, sounding at least 0.1 s, counted between sounding intervals; CPPS from a power cepstrogram (pitch floor 60 Hz, time step 0.002 s, maximum frequency 5000 Hz, pre-emphasis from 50 Hz) smoothed over 0.01 s and 0.001 s, peak searched between 60 and 330 Hz with parabolic interpolation, trend line a robust (Theil) straight line from 1 ms to the highest quefrency.`,
  '',
  ...LOCAL_MEASURE_DEFS.map((d) => `- \`${d.key}\` (${MEASURES[d.key].unit}): ${d.label}. ${d.meaning}.`),
  '',
  'References:',
  '',
  ...LOCAL_REFERENCES.map((r) => `- ${r}`),
  '',
  'The quality-control columns `qc_*` describe the recording itself (levels, clipping, noise, silences) with a verdict good, usable or poor and its reasons.',
];
