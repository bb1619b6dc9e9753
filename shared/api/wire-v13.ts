/**
 * The v1.3 wire format (spec: Resources, Endpoints). Unavailable values are omitted; clients also
 * tolerate null, so every optional member is `nullish`.
 */
import { z } from 'zod';
import {
  ANXIETY_LEVELS,
  COGNITION_CLASSES,
  DEPRESSION_LEVELS,
  ORGANISATION_ROLES,
  STRESS_LEVELS,
  ANALYSIS_TYPES_BY_VERSION,
} from './vocabulary';
import { DateTime, Double, Int, Score100, Simulation, Status, Uuid } from './wire-common';

const opt = <T extends z.ZodType>(t: T) => t.nullish();

export const AnalysisTypeV13 = z.enum(ANALYSIS_TYPES_BY_VERSION['v1.3']);

export const AccountV13 = z.object({
  account_id: Uuid,
  organisation_role: z.enum(ORGANISATION_ROLES),
});

export const UploadRequestV13 = z.object({
  account_id: Uuid,
  recorded_at: DateTime,
  analysis: z.array(AnalysisTypeV13).min(1),
  audio: z.string(),
  isolate_oldest_speaker: z.boolean().optional(),
});
export type UploadRequestV13 = z.infer<typeof UploadRequestV13>;

export const RecordingV13 = z.object({
  recording_id: Uuid,
  account_id: Uuid,
  recorded_at: DateTime,
  uploaded_at: DateTime,
  audio_file_format: z.string(),
  audio_size_bytes: Int,
  audio_sample_rate_hz: Int,
  audio_bit_rate_bps: Int,
  audio_duration_seconds: Double,
  speech_duration_seconds: Double,
  simulation: Simulation.optional().catch(undefined),
});
export type RecordingV13 = z.infer<typeof RecordingV13>;

export const MetadataV13 = z.object({
  recording_id: Uuid,
  account_id: Uuid,
  recorded_at: DateTime,
  audio_duration_seconds: Double,
  uploaded_at: opt(DateTime),
  audio_file_format: opt(z.string()),
  audio_size_bytes: opt(Int),
  audio_sample_rate_hz: opt(Int),
  audio_bit_rate_bps: opt(Int),
  speech_duration_seconds: opt(Double),
});

const rating = <T extends readonly [string, ...string[]]>(values: T) => z.object({ rating: z.enum(values) });

export const WellbeingV13 = z.object({
  status: Status,
  insights: opt(
    z.object({
      stress: opt(rating(STRESS_LEVELS)),
      anxiety: opt(rating(ANXIETY_LEVELS)),
      depression: opt(rating(DEPRESSION_LEVELS)),
    }),
  ),
});

export const ParkinsonsIndicatorsV13 = z.object({
  volume: opt(Int),
  monoloudness: opt(Double),
  monotony: opt(Int),
  articulation: opt(Int),
  speech_rate: opt(Int),
  speech_rate_stdev: opt(Int),
  pause_duration: opt(Int),
  pause_duration_stdev: opt(Int),
  voice_quality: opt(Double),
  hnr: opt(Int),
  stuttering: opt(Double),
});

export const ParkinsonsV13 = z.object({
  status: Status,
  indicators: opt(ParkinsonsIndicatorsV13),
  insights: opt(
    z.object({
      parkinsons: opt(z.object({ rating: opt(z.string()), score: opt(Int) })),
    }),
  ),
});

export const AlzheimersIndicatorsV13 = z.object({
  ttr: opt(Double),
  brunet_index: opt(Double),
  content_ratio: opt(Double),
  mlu_words: opt(Double),
  clause_ratio: opt(Double),
  speech_rate: opt(Double),
  speech_rate_stdev: opt(Double),
  avg_pause_duration_ms: opt(Double),
  pause_filler_words_per_min: opt(Double),
  long_pause_ratio: opt(Double),
});

export const AlzheimersV13 = z.object({
  status: Status,
  indicators: opt(AlzheimersIndicatorsV13),
  insights: opt(
    z.object({
      cognition: opt(
        z.object({
          rating: z.enum(COGNITION_CLASSES),
          scores: opt(z.object({ hc: opt(Double), mci: opt(Double), ad: opt(Double) })),
        }),
      ),
    }),
  ),
});

const scored = z.object({ score: Score100 });

export const CommunicationCoachV13 = z.object({
  status: Status,
  indicators: opt(z.object({ word_rate: Int, fragment_rate: Int, filler_words_rate: Double })),
  insights: opt(z.object({ rhythm: scored, clarity: scored, positiveness: scored, speaking_rate: scored })),
});

export const AnalysisResponseV13 = z.object({
  metadata: MetadataV13,
  analysis: z.object({
    wellbeing: opt(WellbeingV13),
    parkinsons: opt(ParkinsonsV13),
    alzheimers: opt(AlzheimersV13),
    communication_coach: opt(CommunicationCoachV13),
  }),
  simulation: Simulation.optional().catch(undefined),
});
export type AnalysisResponseV13 = z.infer<typeof AnalysisResponseV13>;

export const UsageV13 = z.object({
  trial_remaining: Int,
  trial_granted: Int,
  included_remaining: Int,
  included_granted: Int,
  purchased_remaining: Int,
  tier: z.string().nullish(),
});
export type UsageV13 = z.infer<typeof UsageV13>;

export const ErrorV13 = z.object({ error: z.object({ type: z.string(), message: z.string() }) });
