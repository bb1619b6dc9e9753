/**
 * The local acoustic measurement engine: `measureSamples` over decoded mono PCM (pure, CPU only, usable
 * from a worker thread) and `measureFile` over a recording in any format the decoders open (its channels
 * mixed to mono). Settings and algorithms: docs/acoustics.md.
 */

import { DEFAULT_PITCH_SETTINGS, type PitchSettings } from '../../shared/acoustics/pitch-settings';
import { ok, type Result } from '../../shared/result';
import type { DecodeProblem } from '../audio/decode/decoder';
import { readMonoFile } from '../audio/decoded-samples';
import { cpps } from './cepstrum';
import { toFormants } from './formants';
import { meanHnr, toHarmonicity } from './harmonicity';
import { energyMeanDb, toIntensity } from './intensity';
import type { Measures } from './measures';
import { pitchDefaults, toPitch } from './pitch';
import { toPointProcess } from './point-process';
import { assessQuality, type QualityReport } from './quality';
import { findSilences, summarisePauses } from './silences';
import { mean, quantile, sd } from './stats';
import { jitterLocal, shimmerLocal } from './voice';

export const ENGINE = { name: 'voicescope-acoustics', version: '0.3.0' } as const;

export interface AcousticResult {
  readonly measures: Measures;
  readonly quality: QualityReport;
  readonly settings: PitchSettings;
  readonly engine: typeof ENGINE;
  /** The To Pitch (cc) track the F0 measures come from: frame i at firstTime + i · step, 0 = unvoiced. */
  readonly pitchTrack: { readonly firstTime: number; readonly step: number; readonly f0: Float64Array };
}

const orNull = (v: number | null): number | null => (v === null || !Number.isFinite(v) ? null : v);

export const measureSamples = (
  samples: Float32Array,
  sampleRate: number,
  settings: PitchSettings = DEFAULT_PITCH_SETTINGS,
): AcousticResult => {
  const { pitchFloor: floor, pitchCeiling: ceiling } = settings;
  const pitch = toPitch(samples, sampleRate, pitchDefaults('cc', floor, ceiling));
  const voiced = Array.from(pitch.f0).filter((f) => f > 0);
  const semitones = voiced.map((f) => 12 * Math.log2(f));

  const pulsePitch = toPitch(samples, sampleRate, pitchDefaults('ac', floor, ceiling));
  const points = toPointProcess(samples, sampleRate, pulsePitch);
  const jitter = jitterLocal(points);
  const shimmer = shimmerLocal(samples, sampleRate, points);

  const hnr = meanHnr(toHarmonicity(samples, sampleRate, 0.01, floor, 0.1, 1));
  const intensity = Array.from(toIntensity(samples, sampleRate, 100, 0, true).db);

  const formants = toFormants(samples, sampleRate);
  const formantMean = (k: number): number | null =>
    mean(formants.filter((f) => f.length > k).map((f) => f[k]!));

  const pauses = summarisePauses(findSilences(samples, sampleRate));

  const measures: Measures = {
    f0_mean_hz: mean(voiced),
    f0_median_hz: quantile(voiced, 0.5),
    f0_sd_hz: sd(voiced),
    f0_sd_st: sd(semitones),
    f0_min_hz: voiced.length > 0 ? Math.min(...voiced) : null,
    f0_max_hz: voiced.length > 0 ? Math.max(...voiced) : null,
    jitter_local_pct: jitter === null ? null : jitter * 100,
    shimmer_local_pct: shimmer.local === null ? null : shimmer.local * 100,
    shimmer_local_db: shimmer.localDb,
    hnr_db: hnr,
    cpps_db: cpps(samples, sampleRate),
    intensity_mean_db: energyMeanDb(Float64Array.from(intensity)),
    intensity_sd_db: sd(intensity),
    f1_mean_hz: formantMean(0),
    f2_mean_hz: formantMean(1),
    f3_mean_hz: formantMean(2),
    voiced_fraction: pitch.grid.count > 0 ? voiced.length / pitch.grid.count : null,
    pause_count: pauses.pauseCount,
    pause_mean_s: pauses.pauseMean,
    pause_sd_s: pauses.pauseSd,
    speech_seconds: pauses.speechSeconds,
    phonation_ratio: pauses.phonationRatio,
  };
  for (const k of Object.keys(measures) as (keyof Measures)[]) measures[k] = orNull(measures[k]);
  return {
    measures,
    quality: assessQuality(samples, sampleRate),
    settings,
    engine: ENGINE,
    pitchTrack: { firstTime: pitch.grid.firstTime, step: pitch.grid.step, f0: pitch.f0 },
  };
};

/** Why a recording cannot be measured: the decoders' reason, in a researcher's words. */
export type MeasureFileProblem = DecodeProblem;

export const measureFile = async (
  path: string,
  settings: PitchSettings = DEFAULT_PITCH_SETTINGS,
): Promise<Result<AcousticResult, MeasureFileProblem>> => {
  const audio = await readMonoFile(path);
  if (!audio.ok) return audio;
  return ok(measureSamples(audio.value.samples, audio.value.sampleRateHz, settings));
};

/** The quality control of a recording alone (quality.ts): a fraction of the measures' time, for the import preview. */
export const assessFile = async (path: string): Promise<Result<QualityReport, MeasureFileProblem>> => {
  const audio = await readMonoFile(path);
  if (!audio.ok) return audio;
  return ok(assessQuality(audio.value.samples, audio.value.sampleRateHz));
};
