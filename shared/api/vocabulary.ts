/**
 * The service's closed vocabularies (spec: "What the service does", "States and transitions",
 * "Versioning"). Everything else in the app derives its enums from these constants.
 */
import { z } from 'zod';
import { ANALYSIS_TYPES } from './analysis-names';

export const API_VERSIONS = ['v1.3', 'v1.2'] as const;
export const ApiVersion = z.enum(API_VERSIONS);
export type ApiVersion = z.infer<typeof ApiVersion>;

export { ANALYSIS_LABEL, ANALYSIS_NAME, ANALYSIS_TYPES } from './analysis-names';
export const AnalysisType = z.enum(ANALYSIS_TYPES);
export type AnalysisType = z.infer<typeof AnalysisType>;

/** Analysis types each version accepts on upload and returns in results. */
export const ANALYSIS_TYPES_BY_VERSION = {
  'v1.3': ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'],
  'v1.2': ['wellbeing', 'parkinsons', 'alzheimers'],
} as const satisfies Record<ApiVersion, readonly AnalysisType[]>;

export const analysisTypesFor = (version: ApiVersion): readonly AnalysisType[] =>
  ANALYSIS_TYPES_BY_VERSION[version];

export const ANALYSIS_STATUSES = ['processing', 'completed', 'error', 'not_requested'] as const;
export const AnalysisStatus = z.enum(ANALYSIS_STATUSES);
export type AnalysisStatus = z.infer<typeof AnalysisStatus>;

/** A status after which the service will not change that type's result any more. */
export const isFinalStatus = (s: AnalysisStatus): boolean => s !== 'processing';

export const STRESS_LEVELS = ['low', 'moderate', 'high'] as const;
export const ANXIETY_LEVELS = ['minimal', 'mild', 'moderate', 'severe'] as const;
export const DEPRESSION_LEVELS = ['minimal', 'moderate', 'severe'] as const;
export const COGNITION_CLASSES = ['hc', 'mci', 'ad'] as const;
export const ORGANISATION_ROLES = ['speaker'] as const;

/** Upload formats the service accepts (spec: Limits, "Audio formats"). */
export const AUDIO_FORMATS = ['wav', 'mp3', 'mp4', 'ogg'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** Numeric limits of the spec's Limits table, in one place for the client, validator and sandbox. */
export const LIMITS = {
  /** "50 MB". Read as 50,000,000 bytes, the stricter of the decimal and binary readings. */
  maxAudioBytes: 50_000_000,
  minBitRateBps: 32_000,
  channels: 1,
  minSpeechSeconds: 30,
  maxIsolationSeconds: 600,
  /** The spec gives two minimum sample rates (16,000 and 8,000 Hz) without saying which is enforced. */
  minSampleRateHzStrict: 16_000,
  minSampleRateHzLenient: 8_000,
  processingSeconds: 300,
  pollMinIntervalSeconds: 5,
  pollRecommendedSeconds: [15, 30] as const,
  pollTimeoutSeconds: 300,
} as const;
