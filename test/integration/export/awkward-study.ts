/**
 * A study seeded straight through the schema with everything an export can trip on: participant
 * codes with commas, quotes, line breaks, non-ASCII letters, formula starts and the words NA and null;
 * sessions with the same; v1.2 and v1.3 recordings mixed; simulated and real results; failed,
 * pending, timed-out and never-requested analysis types; completed types with values omitted;
 * negative, tiny and huge numbers; a free-text band the service could send; a recording never
 * uploaded; a participant without recordings; and a second study that must never leak in.
 */
import { MEASURES } from '../../../shared/api/measures';
import {
  ANALYSIS_TYPES,
  analysisTypesFor,
  type AnalysisType,
  type ApiVersion,
} from '../../../shared/api/vocabulary';
import type { Queryable, Store } from '../../../main/db/store/types';
import { insertedId } from '../../support/inserted-id';

export const AWKWARD_CODES = [
  'P,01',
  'Quote "Q"',
  'two\nlines',
  'Zoë-ß-東京',
  'NA',
  'null',
  '=HYPERLINK("http://x","click")',
  '-5',
  '+plus',
  '@at',
  "'apostrophe",
  ' padded ',
  'P-plain',
] as const;

export const ACCOUNT_PREFIX = 'acc0000-';
export const SECRET_FOLDER = '/home/researcher/secret-site';

export interface SeededRecording {
  readonly id: number;
  readonly participant: string;
  readonly session: string | null;
  readonly recordedAt: string;
  readonly apiVersion: ApiVersion | null;
  readonly simulated: boolean | null;
  /** Analysis type → state, for the types that have a row. */
  readonly states: Partial<Record<AnalysisType, string>>;
}

/** Value of measure `key` for recording `r` (null: omitted by the service). Deterministic, so tests can recompute it. */
export const valueFor = (key: string, r: number): number | string | null => {
  const m = MEASURES.find((x) => x.key === key)!;
  if ((r + key.length) % 11 === 0) return null; // omitted although the type completed
  if (m.valueType === 'category') {
    if (!m.allowed) return r % 3 === 0 ? "=cmd|' /C calc'!A0" : r % 3 === 1 ? 'high, "very"' : 'medium';
    return m.allowed[r % m.allowed.length]!;
  }
  if (key === 'pd_volume') return -20 - (r % 7); // dBFS: negative, never neutralised
  if (key === 'ad_long_pause_ratio') return r % 2 === 0 ? 1e-7 * r : 0.1 + 0.2; // exponent form and an inexact double
  if (key === 'pd_articulation') return 123456789 + r;
  if (m.valueType === 'integer') return (r * 7) % 101;
  return ((r * 13) % 997) / 7;
};

const CREATED = '2024-01-01T00:00:00.000Z';

interface RecordingRow {
  readonly study: number;
  readonly pid: number;
  readonly batch: number;
  readonly path: string;
  readonly sha: string;
  readonly speech: number | null;
  readonly converted: number;
  readonly at: string;
  readonly session: string | null;
  readonly state: string;
  readonly rid: string | null;
  readonly version: string | null;
  readonly source: string | null;
  readonly uploaded: string | null;
  readonly svcFormat: string | null;
}

const insertRecording = (q: Queryable, r: RecordingRow): Promise<number> =>
  insertedId(
    q,
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, format, channels, sample_rate_hz, duration_seconds,
       speech_estimate_seconds, converted, recorded_at, recorded_at_source, session_label, upload_state, recording_id, api_version, result_source, uploaded_at,
       svc_format, svc_size_bytes, svc_sample_rate_hz, svc_bit_rate_bps, svc_duration_seconds, svc_speech_seconds, created_at)
     VALUES (?, ?, ?, ?, ?, 960044, 'wav', 1, 44100, 62.5, ?, ?, ?, 'manifest', ?, ?, ?, ?, ?, ?, ?, 960044, 16000, 256000, 62.5, 41.25, ?)`,
    [
      r.study,
      r.pid,
      r.batch,
      r.path,
      r.sha,
      r.speech,
      r.converted,
      r.at,
      r.session,
      r.state,
      r.rid,
      r.version,
      r.source,
      r.uploaded,
      r.svcFormat,
      CREATED,
    ],
  );

const insertParticipant = (
  q: Queryable,
  study: number,
  code: string,
  account: string | null,
  accountCreated: string | null,
): Promise<number> =>
  insertedId(
    q,
    `INSERT INTO participants (study_id, code, account_id, account_created_at, created_at) VALUES (?, ?, ?, ?, ?)`,
    [study, code, account, accountCreated, CREATED],
  );

const insertAnalysis = (
  q: Queryable,
  recording: number,
  type: string,
  state: string,
  finished: string | null,
) =>
  q.run(
    `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, ?, ?, ?, ?)`,
    [recording, type, state, CREATED, finished],
  );

const insertValue = (
  q: Queryable,
  recording: number,
  key: string,
  pid: number,
  at: string,
  num: number | null,
  text: string | null,
) =>
  q.run(
    `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text) VALUES (?, ?, ?, ?, ?, ?)`,
    [recording, key, pid, at, num, text],
  );

/**
 * Seeds the awkward study into a fresh study store (either engine): the sandbox profile, the study
 * (id 1) and the other study (id 2), their batches (1-3), participants, recordings, analyses and values.
 */
export const seedAwkwardStudy = (
  store: Store,
): Promise<{ studyId: number; otherStudyId: number; recordings: SeededRecording[] }> =>
  store.transaction(async (q) => {
    const profile = await insertedId(
      q,
      `INSERT INTO service_profiles (name, base_url, api_version, is_sandbox, created_at) VALUES ('sandbox', 'http://127.0.0.1:1', 'v1.3', 1, ?)`,
      [CREATED],
    );
    const studyId = await insertedId(
      q,
      `INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, ?)`,
      ['Awkward, "study" ü', profile, CREATED],
    );
    const otherStudyId = await insertedId(
      q,
      `INSERT INTO studies (name, profile_id, created_at) VALUES ('Other study', ?, ?)`,
      [profile, CREATED],
    );
    if (studyId !== 1 || otherStudyId !== 2)
      throw new Error(`awkward study seeded into a used store (${studyId})`);
    const batch = (study: number, isolate: number) =>
      insertedId(
        q,
        `INSERT INTO batches (study_id, created_at, analyses, isolate_oldest_speaker, state) VALUES (?, ?, '[]', ?, 'finished')`,
        [study, CREATED, isolate],
      );
    const batches = [await batch(1, 0), await batch(1, 1)] as const;
    const otherBatch = await batch(2, 0);

    const pids: number[] = [];
    for (const [i, code] of AWKWARD_CODES.entries())
      pids.push(
        await insertParticipant(
          q,
          1,
          code,
          `${ACCOUNT_PREFIX}${String(i).padStart(4, '0')}-4000-8000-000000000000`,
          '2024-01-02T08:00:00.000Z',
        ),
      );
    await insertParticipant(q, 1, 'no-recordings', null, null);
    const otherPid = await insertParticipant(q, 2, 'OTHER-1', `${ACCOUNT_PREFIX}other`, null);
    const sessions = [null, 'baseline', 'week, 4', 'w"8"', '+follow-up'];
    const recordings: SeededRecording[] = [];
    let n = 0;
    const t0 = Date.UTC(2024, 2, 30, 22, 30); // across the EU daylight-saving change of 31 March 2024
    for (const [pi, pid] of pids.entries()) {
      for (let k = 0; k < 4; k++) {
        n++;
        const version: ApiVersion = (pi + k) % 3 === 0 ? 'v1.2' : 'v1.3';
        const simulated = pi % 4 !== 1;
        const at = new Date(t0 + (k * 26 + pi) * 3_600_000 + (n % 2) * 1234).toISOString();
        const session = sessions[(pi + k) % sessions.length] ?? null;
        const uploaded = k === 3 && pi === 2 ? null : new Date(Date.parse(at) + 600_000).toISOString();
        const state = uploaded === null ? 'refused_locally' : 'uploaded';
        const id = await insertRecording(q, {
          study: 1,
          pid,
          batch: batches[k % 2]!,
          path: `${SECRET_FOLDER}/week ${k}/${AWKWARD_CODES[pi]!.replace(/\n/g, ' ')}_${k}.wav`,
          sha: (n * 7919).toString(16).padStart(64, 'a'),
          speech: k === 1 ? null : 40.5,
          converted: k % 2,
          at,
          session,
          state,
          rid: uploaded ? `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` : null,
          version: uploaded ? version : null,
          source: uploaded ? (simulated ? 'simulated' : 'service') : null,
          uploaded,
          svcFormat: uploaded ? 'wav' : null,
        });
        const states: Partial<Record<AnalysisType, string>> = {};
        if (uploaded) {
          for (const type of analysisTypesFor(version)) {
            if (type === 'communication_coach' && k === 0) continue; // never requested: no row
            const st =
              (n + ANALYSIS_TYPES.indexOf(type)) % 9 === 0
                ? 'error'
                : (n + ANALYSIS_TYPES.indexOf(type)) % 13 === 0
                  ? 'processing'
                  : (n + ANALYSIS_TYPES.indexOf(type)) % 17 === 0
                    ? 'timed_out'
                    : (n + ANALYSIS_TYPES.indexOf(type)) % 19 === 0
                      ? 'not_requested'
                      : 'completed';
            await insertAnalysis(
              q,
              id,
              type,
              st,
              st === 'completed' || st === 'error' ? '2024-04-01T00:00:00.000Z' : null,
            );
            states[type] = st;
            if (st !== 'completed') continue;
            for (const m of MEASURES) {
              if (m.analysis !== type || m.path[version] === undefined) continue;
              const v = valueFor(m.key, id);
              if (v !== null)
                await insertValue(
                  q,
                  id,
                  m.key,
                  pid,
                  at,
                  typeof v === 'number' ? v : null,
                  typeof v === 'string' ? v : null,
                );
            }
          }
        }
        recordings.push({
          id,
          participant: AWKWARD_CODES[pi]!,
          session,
          recordedAt: at,
          apiVersion: uploaded ? version : null,
          simulated: uploaded ? simulated : null,
          states,
        });
      }
    }
    // The other study: complete results that must never appear in an export of study 1.
    const other = await insertRecording(q, {
      study: 2,
      pid: otherPid,
      batch: otherBatch,
      path: '/x/other.wav',
      sha: 'f'.repeat(64),
      speech: 40,
      converted: 0,
      at: '2024-03-31T10:00:00.000Z',
      session: 'baseline',
      state: 'uploaded',
      rid: '00000000-0000-4000-8000-999999999999',
      version: 'v1.3',
      source: 'service',
      uploaded: '2024-03-31T10:10:00.000Z',
      svcFormat: 'wav',
    });
    await insertAnalysis(q, other, 'wellbeing', 'completed', '2024-04-01T00:00:00.000Z');
    await insertValue(q, other, 'wb_stress', otherPid, '2024-03-31T10:00:00.000Z', null, 'high');
    return { studyId, otherStudyId, recordings };
  });
