/**
 * The v1.2 wire format (spec: Resources, Versioning). Response fields are optional and nullable;
 * `predictions` with flat fields stand where v1.3 has `insights`.
 */
import { z } from 'zod';
import {
  ANALYSIS_TYPES_BY_VERSION,
  ANXIETY_LEVELS,
  COGNITION_CLASSES,
  DEPRESSION_LEVELS,
  ORGANISATION_ROLES,
  STRESS_LEVELS,
} from './vocabulary';
import { DateTime, Double, Int, Simulation, Status, Uuid } from './wire-common';
import { MetadataV13 } from './wire-v13';

const n = <T extends z.ZodType>(t: T) => t.nullish();

export const AnalysisTypeV12 = z.enum(ANALYSIS_TYPES_BY_VERSION['v1.2']);

export const AccountV12 = z.object({
  account_id: n(Uuid),
  organisation_role: n(z.enum(ORGANISATION_ROLES)),
});

export const UploadRequestV12 = z.object({
  account_id: Uuid,
  recorded_at: DateTime,
  analysis: z.array(AnalysisTypeV12).min(1),
  audio: z.string(),
});
export type UploadRequestV12 = z.infer<typeof UploadRequestV12>;

export const RecordingV12 = z.object({
  recording_id: n(Uuid),
  account_id: n(Uuid),
  recorded_at: n(DateTime),
  uploaded_at: n(DateTime),
  audio_file_format: n(z.string()),
  audio_size_bytes: n(Int),
  audio_sample_rate_hz: n(Int),
  audio_bit_rate_bps: n(Int),
  audio_duration_seconds: n(Double),
  speech_duration_seconds: n(Double),
  simulation: Simulation.optional().catch(undefined),
});
export type RecordingV12 = z.infer<typeof RecordingV12>;

/** The metadata table is the same in both versions; v1.2's optional members may be null. */
export const MetadataV12 = MetadataV13;

const result = <T extends readonly [string, ...string[]]>(values: T) =>
  n(z.object({ result: n(z.enum(values)) }));

export const WellbeingV12 = z.object({
  status: Status,
  predictions: n(
    z.object({
      stress: result(STRESS_LEVELS),
      anxiety: result(ANXIETY_LEVELS),
      depression: result(DEPRESSION_LEVELS),
    }),
  ),
});

export const ParkinsonsV12 = z.object({
  status: Status,
  indicators: n(
    z.object({
      volume: n(Int),
      monoloudness: n(Double),
      monotony: n(Int),
      articulation: n(Int),
      speech_rate: n(Int),
      speech_rate_stdev: n(Int),
      pause_duration: n(Int),
      pause_duration_stdev: n(Int),
      voice_quality: n(Double),
      hnr: n(Int),
      stuttering: n(Double),
    }),
  ),
  predictions: n(z.object({ risk_score: n(Int), risk_band: n(z.string()) })),
});

export const AlzheimersV12 = z.object({
  status: Status,
  indicators: n(
    z.object({
      ttr: n(Double),
      brunet_index: n(Double),
      content_ratio: n(Double),
      mlu_words: n(Double),
      clause_ratio: n(Double),
      speech_rate: n(Double),
      speech_rate_stdev: n(Double),
      avg_pause_duration_ms: n(Double),
      pause_filler_words_per_min: n(Double),
      long_pause_ratio: n(Double),
    }),
  ),
  predictions: n(
    z.object({
      hc_probability: n(Double),
      mci_probability: n(Double),
      ad_probability: n(Double),
      prediction: n(z.enum(COGNITION_CLASSES)),
    }),
  ),
});

export const AnalysisResponseV12 = z.object({
  metadata: MetadataV12,
  analysis: z.object({
    wellbeing: n(WellbeingV12),
    parkinsons: n(ParkinsonsV12),
    alzheimers: n(AlzheimersV12),
  }),
  simulation: Simulation.optional().catch(undefined),
});
export type AnalysisResponseV12 = z.infer<typeof AnalysisResponseV12>;

export const UsageV12 = z.object({ count: Int, limit: Int });
export type UsageV12 = z.infer<typeof UsageV12>;

export const ErrorV12 = z.object({
  error: n(z.object({ type: n(z.string()), message: n(z.string()) })),
});
