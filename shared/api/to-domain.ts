/**
 * Maps validated wire objects of either version into the domain types. Measures are read through the
 * catalogue's per-version paths, so this file has no per-measure code and no version switch beyond
 * picking the path.
 */
import type {
  Account,
  AnalysisOutcome,
  AudioFacts,
  MeasureValue,
  RecordingAnalysis,
  RecordingReceipt,
  ResultSource,
  Usage,
} from './domain';
import { MEASURES } from './measures';
import { ANALYSIS_TYPES, type AnalysisStatus, type AnalysisType, type ApiVersion } from './vocabulary';
import type { Simulation } from './wire-common';
import type { AnalysisResponseV12, RecordingV12, UsageV12 } from './wire-v12';
import type { AnalysisResponseV13, RecordingV13, UsageV13 } from './wire-v13';

type AnyRecording = RecordingV13 | RecordingV12;
type AnyAnalysisResponse = AnalysisResponseV13 | AnalysisResponseV12;

const valueAt = (root: unknown, path: readonly string[]): unknown => {
  let node: unknown = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
};

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

const sourceOf = (simulation: Simulation | undefined, simulatedHeader: boolean): ResultSource =>
  simulatedHeader || simulation?.simulated === true ? 'simulated' : 'service';

const audioFacts = (r: {
  audio_file_format?: string | null | undefined;
  audio_size_bytes?: number | null | undefined;
  audio_sample_rate_hz?: number | null | undefined;
  audio_bit_rate_bps?: number | null | undefined;
  audio_duration_seconds?: number | null | undefined;
  speech_duration_seconds?: number | null | undefined;
}): AudioFacts => ({
  format: orNull(r.audio_file_format),
  sizeBytes: orNull(r.audio_size_bytes),
  sampleRateHz: orNull(r.audio_sample_rate_hz),
  bitRateBps: orNull(r.audio_bit_rate_bps),
  durationSeconds: orNull(r.audio_duration_seconds),
  speechDurationSeconds: orNull(r.speech_duration_seconds),
});

/** Reads one analysis object (already validated) into an outcome with catalogue keys. */
export const outcomeOf = (
  version: ApiVersion,
  type: AnalysisType,
  obj: { status: AnalysisStatus },
): AnalysisOutcome => {
  const values: Record<string, MeasureValue> = {};
  for (const m of MEASURES) {
    const path = m.path[version];
    if (m.analysis !== type || path === undefined) continue;
    const v = valueAt(obj, path);
    if (typeof v === 'number' || typeof v === 'string') values[m.key] = v;
  }
  return { type, status: obj.status, values };
};

export const analysisToDomain = (
  version: ApiVersion,
  wire: AnyAnalysisResponse,
  simulatedHeader: boolean,
): RecordingAnalysis => {
  const outcomes: AnalysisOutcome[] = [];
  const analysis = wire.analysis as Partial<Record<AnalysisType, { status: AnalysisStatus } | null>>;
  for (const type of ANALYSIS_TYPES) {
    const obj = analysis[type];
    if (obj) outcomes.push(outcomeOf(version, type, obj));
  }
  const md = wire.metadata;
  return {
    apiVersion: version,
    recordingId: md.recording_id,
    accountId: md.account_id,
    recordedAt: md.recorded_at,
    uploadedAt: orNull(md.uploaded_at),
    audio: audioFacts(md),
    source: sourceOf(wire.simulation, simulatedHeader),
    outcomes,
  };
};

/** Null when the service accepted the upload but gave no recording id (possible in v1.2). */
export const receiptToDomain = (
  version: ApiVersion,
  wire: AnyRecording,
  simulatedHeader: boolean,
): RecordingReceipt | null => {
  if (!wire.recording_id) return null;
  return {
    apiVersion: version,
    recordingId: wire.recording_id,
    accountId: orNull(wire.account_id),
    recordedAt: orNull(wire.recorded_at),
    uploadedAt: orNull(wire.uploaded_at),
    audio: audioFacts(wire),
    source: sourceOf(wire.simulation, simulatedHeader),
  };
};

/** Null when v1.2 answered without an account id. */
export const accountToDomain = (wire: {
  account_id?: string | null | undefined;
  organisation_role?: 'speaker' | null | undefined;
}): Account | null =>
  wire.account_id ? { accountId: wire.account_id, role: orNull(wire.organisation_role) } : null;

export const usageToDomain = (version: ApiVersion, wire: UsageV13 | UsageV12): Usage => {
  if ('count' in wire) {
    return {
      apiVersion: version,
      uploadsRemaining: Math.max(0, wire.limit - wire.count),
      detail: { kind: 'upload_count', used: wire.count, limit: wire.limit },
    };
  }
  return {
    apiVersion: version,
    uploadsRemaining:
      Math.max(0, wire.trial_remaining) +
      Math.max(0, wire.included_remaining) +
      Math.max(0, wire.purchased_remaining),
    detail: {
      kind: 'credits',
      trialRemaining: wire.trial_remaining,
      trialGranted: wire.trial_granted,
      includedRemaining: wire.included_remaining,
      includedGranted: wire.included_granted,
      purchasedRemaining: wire.purchased_remaining,
      tier: orNull(wire.tier),
    },
  };
};
