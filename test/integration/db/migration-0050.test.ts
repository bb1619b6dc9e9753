/**
 * Migration 0050 (indexes for the recordings table) and the page queries that rely on them: each plan
 * uses the index it names and never sorts a whole study, and every combination of sort, direction,
 * filter, batch, participant and search gives exactly the rows a plain query gives, on both sides of
 * the few/many threshold.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { openStudyDb, type Db } from '../../../main/db/open';
import { SQLITE } from '../../../main/db/store/dialect';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import {
  recordingPage,
  recordingPageQueries,
  type RecordingFilter,
  type RecordingQuery,
  type RecordingSort,
} from '../../../main/db/repos/recordings-view.repo';
import { RECORDING_FILTERS, RECORDING_SORTS } from '../../../shared/contract/recordings.contract';

let dir: string;
let db: Db;
const N = 6_000; // above the 5,000 at which pages are walked along the sort's index instead of sorted

const plan = (sql: string, params: object) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[])
    .map((r) => r.detail)
    .join(' | ');

const STATES = [
  'uploaded',
  'uploaded',
  'uploaded',
  'uploaded',
  'refused_locally',
  'rejected',
  'upload_uncertain',
  'duplicate',
  'queued',
  'cancelled',
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vs-m0050-'));
  ({ db } = openStudyDb(join(dir, 'study.sqlite')));
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'now')`,
  ).run();
  for (const s of [1, 2])
    db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (?, ?, 1, 'now')`).run(
      s,
      `s${s}`,
    );
  db.prepare(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'now', '["wellbeing","parkinsons"]', 'finished'), (2, 1, 'now', '["wellbeing"]', 'running'), (3, 2, 'now', '[]', 'open')`,
  ).run();
  const insP = db.prepare(
    `INSERT INTO participants (id, study_id, code, created_at) VALUES (?, ?, ?, 'now')`,
  );
  // Codes that differ only in letter case, to check the tie-break of the case-insensitive sort.
  const codes = ['a-7', 'A-7', 'b_1', 'B%2', 'c-10', 'C-9', 'zeta', 'Zeta', 'm', 'N'];
  codes.forEach((c, i) => insP.run(i + 1, 1, c));
  insP.run(99, 2, 'other-study');
  const insR = db.prepare(
    `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, session_label, upload_state, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, 'manifest', ?, ?, 'now')`,
  );
  const insA = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, ?, ?, 'now')`,
  );
  db.transaction(() => {
    for (let r = 1; r <= N; r++) {
      const p = ((r * 7) % codes.length) + 1;
      const state = STATES[r % STATES.length]!;
      // Many equal times and paths, so ties are broken by id.
      insR.run(
        r,
        1,
        p,
        r % 3 === 0 ? 2 : 1,
        `/data/${r % 40}/rec_${r % 500}.wav`,
        `h${r}`,
        new Date(Date.UTC(2026, 0, 1) + (r % 700) * 3_600_000).toISOString(),
        r % 11 === 0 ? null : `week ${r % 13}`,
        state,
      );
      if (state === 'uploaded') {
        insA.run(r, 'wellbeing', r % 17 === 0 ? 'processing' : r % 19 === 0 ? 'timed_out' : 'completed');
        insA.run(r, 'parkinsons', r % 23 === 0 ? 'error' : 'completed');
      }
    }
    for (let r = N + 1; r <= N + 50; r++)
      insR.run(r, 2, 99, 3, `/other/${r}.wav`, `h${r}`, '2026-01-01T00:00:00Z', null, 'uploaded');
  })();
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same page as the plain, unhinted query the repository started from would give it. */
const reference = (q: RecordingQuery): { ids: number[]; total: number } => {
  const unfinished = `EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state NOT IN ('completed', 'not_requested'))`;
  const filter: Record<RecordingFilter, string> = {
    all: '1',
    needs_attention: `(r.upload_state IN ('refused_locally', 'rejected', 'upload_uncertain', 'duplicate') OR (r.upload_state = 'uploaded' AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state IN ('error', 'timed_out'))))`,
    in_progress: `(r.upload_state IN ('pending', 'queued', 'uploading') OR (r.upload_state = 'uploaded' AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'processing')))`,
    completed: `(r.upload_state = 'uploaded' AND NOT ${unfinished})`,
    uncertain: `r.upload_state = 'upload_uncertain'`,
    refused: `r.upload_state IN ('refused_locally', 'rejected')`,
    duplicates: `r.upload_state = 'duplicate'`,
  };
  const order: Record<RecordingSort, string> = {
    recorded_at: 'r.recorded_at',
    participant: 'p.code COLLATE NOCASE',
    file: 'r.source_path',
    state: 'r.upload_state',
    id: 'r.id',
  };
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = [
    'r.study_id = @studyId',
    filter[q.filter ?? 'all'],
    q.participantId !== undefined ? 'r.participant_id = @participantId' : null,
    q.batchId !== undefined ? 'r.batch_id = @batchId' : null,
    like
      ? `(p.code LIKE @search ESCAPE '\\' OR r.source_path LIKE @search ESCAPE '\\' OR r.session_label LIKE @search ESCAPE '\\')`
      : null,
  ]
    .filter(Boolean)
    .join(' AND ');
  const params = {
    studyId: q.studyId,
    participantId: q.participantId ?? null,
    batchId: q.batchId ?? null,
    search: like,
  };
  const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
  const from = `FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE ${where}`;
  const tie = q.sort === 'participant' ? `, p.id ${dir}` : '';
  const ids = (
    db
      .prepare(
        `SELECT r.id ${from} ORDER BY ${order[q.sort]} ${dir}${tie}, r.id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`,
      )
      .all(params) as { id: number }[]
  ).map((r) => r.id);
  return { ids, total: (db.prepare(`SELECT count(*) n ${from}`).get(params) as { n: number }).n };
};

const SORTS: readonly RecordingSort[] = RECORDING_SORTS;
const FILTERS: readonly RecordingFilter[] = RECORDING_FILTERS;

describe('migration 0050', () => {
  it('adds the three indexes, from 0040 on', () => {
    const d = new Database(':memory:');
    migrate(d, MIGRATIONS, 40);
    migrate(d, MIGRATIONS, 50);
    const names = (
      d.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index'`).all() as { name: string }[]
    ).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'recordings_by_study_path',
        'recordings_by_participant_id',
        'analyses_unfinished',
      ]),
    );
    d.close();
  });
});

describe('recordings.page queries', () => {
  const q = (over: Partial<RecordingQuery>): RecordingQuery => ({
    studyId: 1,
    sort: 'recorded_at',
    dir: 'asc',
    offset: 0,
    limit: 100,
    ...over,
  });

  it("walk the sort's index when many rows match: no sort of the whole study", () => {
    for (const sort of SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const s = recordingPageQueries(q({ sort, dir }), SQLITE);
        const p = plan(s.ids(N), s.params);
        // Sorting by file, only rows with the same path are put in id order among themselves ("last term").
        expect(p, `${sort} ${dir}`).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    }
    const byParticipant = recordingPageQueries(q({ sort: 'participant' }), SQLITE);
    expect(plan(byParticipant.ids(N), byParticipant.params)).toMatch(
      /participants_by_study_code.*COVERING INDEX recordings_by_participant_id/,
    );
    const byFile = recordingPageQueries(q({ sort: 'file' }), SQLITE);
    expect(plan(byFile.ids(N), byFile.params)).toMatch(/COVERING INDEX recordings_by_study_path/);
  });

  it('count through the narrowest index, and find unfinished analyses through their partial index', () => {
    const count = (over: Partial<RecordingQuery>) => {
      const s = recordingPageQueries(q(over), SQLITE);
      return plan(s.count, s.params);
    };
    expect(count({})).toMatch(/COVERING INDEX recordings_by_state/);
    expect(count({ filter: 'uncertain' })).toMatch(/recordings_by_state \(study_id=\? AND upload_state=\?\)/);
    expect(count({ filter: 'completed' })).toMatch(/analyses_unfinished/);
    expect(count({ filter: 'needs_attention' })).toMatch(/analyses_unfinished/);
    expect(count({ filter: 'in_progress' })).toMatch(/analyses_unfinished/);
    expect(count({ batchId: 1 })).toMatch(/recordings_by_batch/);
    expect(count({ participantId: 3 })).toMatch(/recordings_by_participant_id/);
    expect(count({ search: 'rec_1' })).toMatch(/COVERING INDEX recordings_by_study_path/);
    expect(count({ search: 'rec_1' })).not.toMatch(/JOIN|SCAN p\b/);
  });

  it('give exactly the rows and totals of the plain query, for every sort, direction and filter, at the start and deep in the table', async () => {
    let checked = 0;
    for (const sort of SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        for (const filter of FILTERS) {
          for (const offset of [0, 137, 2_400]) {
            const query = q({ sort, dir, filter, offset });
            const got = await recordingPage(sqliteStore(db), query);
            const want = reference(query);
            expect(
              { ids: got.rows.map((r) => r.id), total: got.total },
              `${sort} ${dir} ${filter} @${offset}`,
            ).toEqual(want);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(5 * 2 * 7 * 3);
  });

  it("give the plain query's rows within a batch, for one participant, and for searches (codes, paths, sessions; wildcards literal)", async () => {
    const cases: Partial<RecordingQuery>[] = [
      { batchId: 1 },
      { batchId: 2, filter: 'needs_attention' },
      { batchId: 3 },
      { participantId: 4 },
      { participantId: 99 },
      { search: 'zeta' },
      { search: 'B%2' },
      { search: 'b_1' },
      { search: 'rec_12' },
      { search: 'week 1' },
      { search: '%' },
      { search: 'other' },
      { search: 'a-7', filter: 'needs_attention' },
      { batchId: 1, search: '/data/3' },
    ];
    for (const c of cases) {
      for (const sort of SORTS) {
        for (const offset of [0, 90]) {
          const query = q({ ...c, sort, dir: 'desc', offset });
          const got = await recordingPage(sqliteStore(db), query);
          expect(
            { ids: got.rows.map((r) => r.id), total: got.total },
            JSON.stringify({ ...c, sort, offset }),
          ).toEqual(reference(query));
        }
      }
    }
  });

  it('answers an empty page past the end without reading rows', async () => {
    expect(await recordingPage(sqliteStore(db), q({ offset: N + 10 }))).toEqual({ rows: [], total: N });
    expect((await recordingPage(sqliteStore(db), q({ studyId: 2 }))).total).toBe(50);
  });
});
