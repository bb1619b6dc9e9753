/**
 * Which recordings and analysis types an export holds, read from the study database in one fixed order
 * (participant code, recording time, recording number) so the same selection always gives the same
 * bytes. A recording is selected when it belongs to the study, matches the participant, date and
 * session filters, and either has at least one analysis type that passes the type and state filters
 * (only those (recording, type) pairs are exported), or never reached the service (no analysis row:
 * refused locally, held, not sent yet) but was measured locally: its local measures are exported
 * (`analysis` = `local`) with the service's columns empty. A state filter selects the service's analyses
 * by state, so it leaves those local-only recordings out. Lists are bound as JSON arrays (json_each),
 * never spliced into the SQL.
 */
import { z } from 'zod';
import { ANALYSIS_TYPES, type AnalysisType } from '../../../shared/api/vocabulary';
import { jsonColumn } from '../json-column';
import { unreadableColumns } from '../readable-columns';
import { positional } from '../store/named-params';
import type { Dialect } from '../store/dialect';
import type { Queryable, SqlValue } from '../store/types';
import {
  answersAsReceived,
  flagsOfRecordings,
  type AnswerAsReceived,
  type StoredFlag,
} from './data-quality.repo';

/** What an export selects: the request's filters, its date bounds already turned into UTC instants by the caller. */
export interface Selection {
  readonly studyId: number;
  /** Participant codes; absent: every participant. */
  readonly participants?: readonly string[] | undefined;
  /** recorded_at on or after this instant, as Date#toISOString writes it (the column's form). */
  readonly fromUtc?: string | undefined;
  /** recorded_at on or before this instant, as Date#toISOString writes it. */
  readonly toUtc?: string | undefined;
  /** Session labels; the empty string selects recordings without one. Absent: every session. */
  readonly sessions?: readonly string[] | undefined;
  /** Analysis types; absent: all. */
  readonly analyses?: readonly AnalysisType[] | undefined;
  /** States of an analysis type for it to be selected; absent: every state. */
  readonly states?: readonly string[] | undefined;
}

export interface RecordingView {
  readonly id: number;
  readonly participantId: number;
  readonly participant: string;
  readonly session: string | null;
  readonly recordedAt: string;
  readonly recordedAtSource: string;
  /** Null when the login may not read it (a team study's analyst: file paths can name a person). */
  readonly sourcePath: string | null;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly format: string | null;
  readonly sampleRateHz: number | null;
  readonly durationSeconds: number | null;
  readonly speechEstimateSeconds: number | null;
  readonly converted: number;
  readonly uploadState: string;
  readonly recordingId: string | null;
  readonly apiVersion: string | null;
  readonly resultSource: string | null;
  readonly uploadedAt: string | null;
  readonly svcFormat: string | null;
  readonly svcSizeBytes: number | null;
  readonly svcSampleRateHz: number | null;
  readonly svcBitRateBps: number | null;
  readonly svcDurationSeconds: number | null;
  readonly svcSpeechSeconds: number | null;
  readonly batchId: number | null;
  readonly isolate: number | null;
  /** Curation (migration 0120): when and why the recording was excluded from analysis; null: included. */
  readonly excludedAt: string | null;
  readonly excludedReason: string | null;
  /** JSON array of provenance notes ({at, note, act}); null when there are none. */
  readonly provenance: string | null;
  /** The conversion kept with the local verdict (JSON: copy's hash, channel, rate, decoder); null when none was made. */
  readonly conversion: string | null;
}

export interface PairView {
  readonly type: AnalysisType;
  readonly state: string;
}

export type MeasureValue = number | string;

interface Filter {
  readonly where: string;
  readonly pairWhere: string;
  readonly params: Record<string, SqlValue>;
}

const filterOf = (req: Selection, d: Dialect): Filter => {
  const params: Record<string, SqlValue> = { study: req.studyId };
  const where = ['p.study_id = @study', 'r.study_id = @study'];
  if (req.participants) {
    where.push(`p.code IN (${d.jsonValues('@participants', 'text')})`);
    params['participants'] = JSON.stringify(req.participants);
  }
  // recorded_at is stored as Date#toISOString (fixed width, Z), so text order is time order.
  if (req.fromUtc !== undefined) {
    where.push('r.recorded_at >= @from');
    params['from'] = req.fromUtc;
  }
  if (req.toUtc !== undefined) {
    where.push('r.recorded_at <= @to');
    params['to'] = req.toUtc;
  }
  if (req.sessions) {
    where.push(`coalesce(r.session_label, '') IN (${d.jsonValues('@sessions', 'text')})`);
    params['sessions'] = JSON.stringify(req.sessions);
  }
  const pair = ['a.recording_id = r.id'];
  if (req.analyses) {
    pair.push(`a.type IN (${d.jsonValues('@types', 'text')})`);
    params['types'] = JSON.stringify(req.analyses);
  }
  if (req.states) {
    pair.push(`a.state IN (${d.jsonValues('@states', 'text')})`);
    params['states'] = JSON.stringify(req.states);
  }
  const pairWhere = pair.join(' AND ');
  const sent = `EXISTS (SELECT 1 FROM analyses a WHERE ${pairWhere})`;
  where.push(
    req.states
      ? sent
      : `(${sent} OR (NOT EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id)
            AND EXISTS (SELECT 1 FROM local_measurements m WHERE m.recording_id = r.id)))`,
  );
  return { where: where.join(' AND '), pairWhere, params };
};

export interface StudyRow {
  readonly id: number;
  readonly name: string;
}

/**
 * A recording's measure values as json_group_object reads them (each a number or a text). Checked by a
 * loop rather than a zod record: the export reads one per recording, 100,000 in a large study, and a
 * zod record of 40 values costs several times the JSON parse itself.
 */
const isMeasureValues = (v: unknown): v is Record<string, MeasureValue> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const x of Object.values(v)) if (typeof x !== 'number' && typeof x !== 'string') return false;
  return true;
};
const measureValues = jsonColumn(
  'measure_values',
  'value_num, value_text',
  z.custom<Record<string, MeasureValue>>(isMeasureValues, 'each value is a number or a text'),
);

export const findStudy = async (q: Queryable, id: number): Promise<StudyRow | null> =>
  (await q.get<StudyRow>(`SELECT id, name FROM studies WHERE id = ?`, [id])) ?? null;

export interface SelectionCounts {
  readonly recordings: number;
  readonly participants: number;
  readonly pairsByType: Readonly<Partial<Record<AnalysisType, number>>>;
}

export const countSelection = async (q: Queryable, req: Selection): Promise<SelectionCounts> => {
  const f = filterOf(req, q.dialect);
  const headSql = positional(
    `SELECT count(*) AS recordings, count(DISTINCT p.id) AS participants FROM participants p JOIN recordings r ON r.participant_id = p.id WHERE ${f.where}`,
    f.params,
  );
  const head = (await q.get<{ recordings: number; participants: number }>(headSql.sql, headSql.params))!;
  const pairsSql = positional(
    `SELECT a.type AS type, count(*) AS n FROM participants p JOIN recordings r ON r.participant_id = p.id JOIN analyses a ON ${f.pairWhere}
     WHERE ${f.where} GROUP BY a.type`,
    f.params,
  );
  const pairs = await q.all<{ type: AnalysisType; n: number }>(pairsSql.sql, pairsSql.params);
  return {
    recordings: head.recordings,
    participants: head.participants,
    pairsByType: Object.fromEntries(pairs.map((p) => [p.type, p.n])),
  };
};

/**
 * The recording columns, each selected under its view's name, so the row the driver builds is the
 * view itself (one object per recording, no second one built from it); then the exported
 * `type:state` pairs. test/unit/export/selection.test.ts keeps the list and the view in step.
 */
export const recordingColumns = (d: Dialect) =>
  [
    ['id', 'r.id'],
    ['participantId', 'p.id'],
    ['participant', 'p.code'],
    ['session', 'r.session_label'],
    ['recordedAt', 'r.recorded_at'],
    ['recordedAtSource', 'r.recorded_at_source'],
    ['sourcePath', 'r.source_path'],
    ['sha256', 'r.content_sha256'],
    ['sizeBytes', 'r.size_bytes'],
    ['format', 'r.format'],
    ['sampleRateHz', 'r.sample_rate_hz'],
    ['durationSeconds', 'r.duration_seconds'],
    ['speechEstimateSeconds', 'r.speech_estimate_seconds'],
    ['converted', 'r.converted'],
    ['uploadState', 'r.upload_state'],
    ['recordingId', 'r.recording_id'],
    ['apiVersion', 'r.api_version'],
    ['resultSource', 'r.result_source'],
    ['uploadedAt', 'r.uploaded_at'],
    ['svcFormat', 'r.svc_format'],
    ['svcSizeBytes', 'r.svc_size_bytes'],
    ['svcSampleRateHz', 'r.svc_sample_rate_hz'],
    ['svcBitRateBps', 'r.svc_bit_rate_bps'],
    ['svcDurationSeconds', 'r.svc_duration_seconds'],
    ['svcSpeechSeconds', 'r.svc_speech_seconds'],
    ['batchId', 'r.batch_id'],
    ['isolate', 'b.isolate_oldest_speaker'],
    ['excludedAt', 'r.excluded_at'],
    ['excludedReason', 'r.excluded_reason'],
    ['provenance', 'r.provenance'],
    ['conversion', d.jsonText('r.verdict', 'conversion')],
  ] as const satisfies readonly (readonly [keyof RecordingView, string])[];

/** A recording as read: its view, and its exported analyses as `type:state,...` (null: none). */
type RecordingRow = RecordingView & { readonly pairs: string | null };

/**
 * The select list: every view column under its name (quoted: the names are mixed case), each column of
 * `recordings` the login may not read (`unreadable`, by column name) selected as NULL.
 */
export const recordingSelectList = (d: Dialect, unreadable: readonly string[] = []): string =>
  recordingColumns(d)
    .map(([name, expr]) => `${unreadable.some((c) => expr === `r.${c}`) ? 'NULL' : expr} AS "${name}"`)
    .join(', ');

/** The columns of `recordings` the export reads that a team member's login may not read. */
const WITHHOLDABLE = ['source_path'] as const;

export interface SelectedRecording {
  readonly r: RecordingView;
  /** Exported analysis types, in catalogue order; none when the recording never reached the service. */
  readonly pairs: readonly PairView[];
  /** Stored values by measure key (a key is absent when the service did not provide the value). */
  readonly values: Readonly<Record<string, MeasureValue>>;
  /** Its data-quality flags (receipt, receipt check, polls); usually none. */
  readonly flags: readonly StoredFlag[];
  /** Its analysis objects as last received, listed types first, then those the specification does not describe. */
  readonly answers: readonly AnswerAsReceived[];
}

const TYPE_ORDER = new Map<string, number>(ANALYSIS_TYPES.map((t, i) => [t, i]));

/** A recording's exported types in catalogue order, from `type:state,...`; none when it never reached the service. */
const pairsOf = (pairs: string | null): PairView[] =>
  // Types and states come from closed vocabularies (checked by the schema), so ':' and ',' cannot occur in them.
  (pairs?.split(',') ?? [])
    .map((p) => {
      const i = p.indexOf(':');
      return { type: p.slice(0, i) as AnalysisType, state: p.slice(i + 1) };
    })
    .sort((a, b) => TYPE_ORDER.get(a.type)! - TYPE_ORDER.get(b.type)!);

const NONE: Readonly<Record<string, MeasureValue>> = Object.freeze({});
const NO_FLAGS: readonly StoredFlag[] = Object.freeze([]);
const NO_ANSWERS: readonly AnswerAsReceived[] = Object.freeze([]);

/**
 * Values are read for a block of recordings at once, each recording's as one JSON object built by
 * SQLite (real values in round-trip precision): one statement and one JSON.parse per recording instead
 * of a row object per value, about half the reading time at 3.7 million values.
 */
const valuesOfBlock = (
  d: Dialect,
): string => `SELECT recording_id AS id, ${d.jsonGroupObject('measure_key', 'value_num', 'value_text')} AS v
     FROM measure_values WHERE recording_id IN (${d.jsonValues('?', 'integer')}) GROUP BY recording_id`;

/** A block of recordings with their values, flags and answers as received. */
const completeBlock = async (q: Queryable, block: readonly RecordingRow[]): Promise<SelectedRecording[]> => {
  const ids = block.map((r) => r.id);
  const byRecording = new Map<number, Record<string, MeasureValue>>();
  for (const { id, v } of await q.all<{ id: number; v: string }>(valuesOfBlock(q.dialect), [
    JSON.stringify(ids),
  ]))
    byRecording.set(id, measureValues.decode(v));
  const flags = await flagsOfRecordings(q, ids);
  const answers = new Map<number, AnswerAsReceived[]>();
  for (const a of await answersAsReceived(q, ids)) {
    let list = answers.get(a.recordingId);
    if (!list) answers.set(a.recordingId, (list = []));
    list.push(a);
  }
  return block.map((r) => ({
    r,
    pairs: pairsOf(r.pairs),
    values: byRecording.get(r.id) ?? NONE,
    flags: flags.get(r.id) ?? NO_FLAGS,
    answers: answers.get(r.id) ?? NO_ANSWERS,
  }));
};

/**
 * The selected recordings in export order, each with its exported types and stored values, a block
 * at a time: only a block is in memory. Meant for a snapshot (`Store.snapshot`): the recordings are
 * iterated on the snapshot's own connection while each block's values are read beside them, so the
 * engine's connection is never held. (On the store itself, the iteration would hold its turn and the
 * block's reads would wait for it.)
 */
export async function* selectedRecordings(
  q: Queryable,
  req: Selection,
): AsyncGenerator<SelectedRecording, void, undefined> {
  const f = filterOf(req, q.dialect);
  const unreadable = await unreadableColumns(q, 'recordings', WITHHOLDABLE);
  const recordings = positional(
    `SELECT ${recordingSelectList(q.dialect, unreadable)},
            (SELECT ${q.dialect.groupConcat("a.type || ':' || a.state")} FROM analyses a WHERE ${f.pairWhere}) AS pairs
     FROM participants p JOIN recordings r ON r.participant_id = p.id LEFT JOIN batches b ON b.id = r.batch_id
     WHERE ${f.where}
     ORDER BY ${q.dialect.binary('p.code')}, ${q.dialect.binary('r.recorded_at')}, r.id`,
    f.params,
  );
  let block: RecordingRow[] = [];
  for await (const row of q.iterate<RecordingRow>(recordings.sql, recordings.params)) {
    block.push(row);
    if (block.length === VALUE_BLOCK) {
      yield* await completeBlock(q, block);
      block = [];
    }
  }
  if (block.length > 0) yield* await completeBlock(q, block);
}

/** Recordings whose values are read in one statement. */
const VALUE_BLOCK = 64;

/** The service account of one participant; read only when the researcher asked for the link file. */
export const accountOf = async (
  q: Queryable,
  participantId: number,
): Promise<{ accountId: string | null; createdAt: string | null }> =>
  (await q.get<{ accountId: string | null; createdAt: string | null }>(
    `SELECT account_id AS "accountId", account_created_at AS "createdAt" FROM participants WHERE id = ?`,
    [participantId],
  )) ?? { accountId: null, createdAt: null };
