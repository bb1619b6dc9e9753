/**
 * What the writers hand to the columns: a recording as read for export, and the row each file is written from.
 */
import { type MeasureDef } from '../../../shared/api/measures';
import { type AnalysisType } from '../../../shared/api/vocabulary';
import { type ChangeStats } from '../../../shared/change';
import { type AnswerAsReceived, type StoredFlag } from '../../db/repos/data-quality.repo';
import type { MeasureValue, PairView, RecordingView } from '../../db/repos/export-selection.repo';
import { type StoredMeasurement } from '../../db/repos/local-measures.repo';
import { type LocalMeasureDef, type LocalPairView } from '../local-columns';
import { type LocalTime } from '../time';
import { type VisitCells } from '../visit-files';

export type { MeasureValue, PairView, RecordingView } from '../../db/repos/export-selection.repo';

/** One recording with its times already formatted (once per recording, not once per row). */
export interface RecordingCtx {
  readonly r: RecordingView;
  readonly recordedUtc: string | null;
  readonly recorded: LocalTime | null;
  readonly uploadedUtc: string | null;
  readonly uploaded: LocalTime | null;
  /** The recording's data-quality flags (receipt, receipt check, polls); usually none. */
  readonly flags: readonly StoredFlag[];
  /** The recording's local acoustic measures and quality control; null or absent when not measured. */
  readonly local?: StoredMeasurement | null;
  /** The recording's visit in the study's schedule (visit-files.ts). */
  readonly visit: VisitCells;
}

export interface WideCtx extends RecordingCtx {
  /** The exported analysis types of this recording. */
  readonly pairs: ReadonlyMap<AnalysisType, PairView>;
  readonly values: Readonly<Record<string, MeasureValue>>;
}

export interface LongCtx extends RecordingCtx {
  /** An analysis type of the service, or the local acoustic measures (local-columns.ts). */
  readonly pair: PairView | LocalPairView;
  readonly measure: MeasureDef | LocalMeasureDef;
  readonly value: MeasureValue | undefined;
}

/** The recording a summary value came from, with its time as stored (ordering, baseline) and as written. */
export interface SummaryAt {
  readonly recording: number;
  readonly recordedAt: string;
  readonly utc: string | null;
  readonly local: LocalTime | null;
}

export interface SummaryPoint extends SummaryAt {
  readonly value: MeasureValue;
}

/** One participant, measure and API version (or the one row of a measure without values: apiVersion null, n = 0). */
export interface SummaryCtx {
  readonly participant: string;
  readonly measure: MeasureDef;
  readonly apiVersion: string | null;
  readonly n: number;
  readonly baselineN: number;
  readonly baselineFrom: SummaryAt | null;
  readonly baselineTo: SummaryAt | null;
  /** Mean of the baseline values (numeric measures). */
  readonly baseline: number | null;
  readonly baselineSd: number | null;
  /** The first value (categories). */
  readonly baselineCategory: string | null;
  readonly latest: SummaryPoint | null;
  /** The change statistics (shared/change.ts); null for categories and when n = 0. */
  readonly change: ChangeStats | null;
  readonly mean: number | null;
  readonly sd: number | null;
  readonly simulated: boolean;
}

/** One data-quality flag of a recording, numbered within it. */
export interface FlagCtx {
  readonly recording: number;
  readonly n: number;
  readonly flag: StoredFlag;
}

/** One analysis object of a recording exactly as the service last sent it. */
export interface AnswerCtx {
  readonly answer: AnswerAsReceived;
}

export interface LinkCtx {
  readonly participant: string;
  readonly accountId: string | null;
  readonly createdUtc: string | null;
  readonly created: LocalTime | null;
}
