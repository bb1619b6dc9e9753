/**
 * Maps wire objects that passed the strict schemas (wire-v13.ts, wire-v12.ts) into the domain types. The
 * client itself reads answers tolerantly (read/answers.ts); these adapters run the same readers, so a
 * value is mapped in one place only. A valid wire object is always readable and never flagged.
 */
import type { RecordingAnalysis, Usage } from './domain';
import { readAnalysisAnswer, readUsage } from './read/answers';
import type { ApiVersion } from './vocabulary';
import type { AnalysisResponseV12, UsageV12 } from './wire-v12';
import type { AnalysisResponseV13, UsageV13 } from './wire-v13';

const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: { path: string; detail: string } }): T => {
  if (!r.ok) throw new Error(`not a valid wire object: ${r.error.path}: ${r.error.detail}`);
  return r.value;
};

export const analysisToDomain = (
  version: ApiVersion,
  wire: AnalysisResponseV13 | AnalysisResponseV12,
  simulatedHeader: boolean,
): RecordingAnalysis =>
  unwrap(
    readAnalysisAnswer(version, wire, { simulatedHeader, polledRecordingId: wire.metadata.recording_id }),
  );

export const usageToDomain = (version: ApiVersion, wire: UsageV13 | UsageV12): Usage =>
  unwrap(readUsage(version, wire));
