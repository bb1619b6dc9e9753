/**
 * The statements where SQLite's and PostgreSQL's SQL differ (main/db/store/dialect.ts), run through
 * their repositories on both engines with the same assertions: NULL placeholders and NULL-safe
 * comparisons, JSON lists and aggregates, SQLite's case-folded order and LIKE, NULL order, booleans
 * read as 0/1, camelCase names, instants subtracted, the write stamp. One study is written once per
 * engine and read by every test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchProgress } from '../../../main/db/repos/batches.repo';
import { databaseVersion } from '../../../main/db/repos/change.repo';
import { curationActsOfParticipant } from '../../../main/db/repos/curation.repo';
import { answersAsReceived, flagsOfRecordings, replaceFlags } from '../../../main/db/repos/data-quality.repo';
import { findSameContentElsewhere } from '../../../main/db/repos/duplicates.repo';
import { recordingStateCounts } from '../../../main/db/repos/end-states.repo';
import { exportFacts } from '../../../main/db/repos/export-options.repo';
import { selectedRecordings } from '../../../main/db/repos/export-selection.repo';
import { insertImportBatch, type NewRecording } from '../../../main/db/repos/imports.repo';
import { participantPage } from '../../../main/db/repos/participants.repo';
import { claimDuePoll, duePolls } from '../../../main/db/repos/polls.repo';
import { pendingWork } from '../../../main/db/repos/queue.repo';
import { pauseBudget, refundBudgetToken, takeBudgetToken } from '../../../main/db/repos/request-budget.repo';
import { recordingPage, recordingRows } from '../../../main/db/repos/recordings-view.repo';
import { activeStudyIds, studyViews } from '../../../main/db/repos/studies.repo';
import { timelineValuesOf } from '../../../main/db/repos/timeline.repo';
import { resolveUncertain } from '../../../main/db/repos/uploads.repo';
import { usageByStudy } from '../../../main/db/repos/usage.repo';
import { recordingVisitFactsOfParticipant } from '../../../main/db/repos/visit-facts.repo';
import type { Store } from '../../../main/db/store/types';
import { freshStudyStore } from '../../support/fresh-study-db';
import { migratedPglite, PGLITE_START_TIMEOUT } from '../../support/pglite';
import { plannedFile } from '../../support/planned-file';

const AT = '2026-01-06T00:00:00.000Z';

const file = (i: number, code: string, sha = String(i).padStart(64, '0')): NewRecording =>
  plannedFile(i, code, {
    sourcePath: `/in/${code}/Take${i}.wav`,
    sha256: sha,
    recordedAt: `2026-01-0${i}T10:00:00.000Z`,
    verdict: JSON.stringify({ status: 'accepted', findings: [] }),
  });

interface Seeded {
  readonly study: number;
  readonly batch: number;
  readonly ids: readonly number[];
  readonly participant: Readonly<Record<string, number>>;
}

/**
 * Three studies whose names sort differently by bytes, by a server's language collation and by
 * SQLite's NOCASE; in `alpha`, participants `b`, `A` and `_c` with a recording each (`_c`'s repeats
 * `A`'s content), and `z` with none.
 */
const seed = async (store: Store): Promise<Seeded> => {
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
  );
  for (const [id, name] of [
    [1, 'Beta'],
    [2, 'alpha'],
    [3, '_x'],
  ] as const)
    await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (?, ?, 1, 'x')`, [
      id,
      name,
    ]);
  const { batchId } = await store.transaction((tx) =>
    insertImportBatch(
      tx,
      { studyId: 2, at: AT, analyses: '[]', isolateOldestSpeaker: false, label: '', convertWav: false },
      [file(1, 'b'), file(2, 'A'), file(3, '_c', String(2).padStart(64, '0'))],
    ),
  );
  await store.run(`INSERT INTO participants (study_id, code, created_at) VALUES (2, 'z', 'x')`);
  const rows = await store.all<{ id: number; code: string; pid: number }>(
    `SELECT r.id, p.code, p.id AS pid FROM recordings r JOIN participants p ON p.id = r.participant_id ORDER BY r.id`,
  );
  const participant = Object.fromEntries(
    (await store.all<{ id: number; code: string }>(`SELECT id, code FROM participants`)).map((p) => [
      p.code,
      p.id,
    ]),
  );
  const ids = rows.map((r) => r.id);
  const [b, a] = ids as [number, number, number];
  // b: uploaded 90 s after the service accepted it, with two analyses; A: uploaded, one analysis.
  await store.run(
    `UPDATE recordings SET upload_state = 'uploaded', accepted_at = '2026-01-01T10:00:00.000Z',
            uploaded_at = '2026-01-01T10:01:30.000Z', api_version = 'v1.3' WHERE id = ?`,
    [b],
  );
  await store.run(
    `UPDATE recordings SET upload_state = 'uploaded', accepted_at = '2026-01-02T10:00:00.000Z',
            uploaded_at = '2026-01-02T10:00:30.000Z', api_version = 'v1.3' WHERE id = ?`,
    [a],
  );
  await store.run(
    `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at, raw, received_status)
     VALUES (?, 'wellbeing', 'completed', ?, NULL, '{"w":1}', 'ok'), (?, 'parkinsons', 'processing', ?, ?, NULL, NULL),
            (?, 'wellbeing', 'processing', ?, ?, NULL, NULL)`,
    [b, AT, b, AT, AT, a, AT, AT],
  );
  await store.run(
    `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text)
     VALUES (?, 'wellbeing.score', ?, ?, 0.1, NULL), (?, 'wellbeing.label', ?, ?, NULL, 'calm')`,
    [b, participant['b']!, '2026-01-01T10:00:00.000Z', b, participant['b']!, '2026-01-01T10:00:00.000Z'],
  );
  return { study: 2, batch: batchId, ids, participant };
};

const engines: [string, () => Promise<Store>][] = [
  ['SQLite', async () => freshStudyStore()],
  ['PostgreSQL (PGlite)', async () => (await migratedPglite()).store],
];

describe.each(engines)('the statements that differ between the dialects, on %s', (_engine, open) => {
  let store: Store;
  let s: Seeded;
  beforeAll(async () => {
    store = await open();
    s = await seed(store);
  }, PGLITE_START_TIMEOUT);
  afterAll(() => store.close());

  it("lists studies in SQLite's case-folded byte order, one study when asked (a NULL placeholder)", async () => {
    expect((await studyViews(store, [])).map((v) => v.name)).toEqual(['_x', 'alpha', 'Beta']);
    const one = await studyViews(store, [], s.study);
    expect(one.map((v) => [v.name, v.participants, v.recordings])).toEqual([['alpha', 4, 3]]);
  });

  it("orders study names and session labels byte by byte, as SQLite does, whatever the server's collation", async () => {
    expect(await activeStudyIds(store)).toEqual([1, 3, 2]); // Beta, _x, alpha
    const labels = ['b', 'B', '_a'];
    for (const [i, id] of s.ids.entries())
      await store.run(`UPDATE recordings SET session_label = ? WHERE id = ?`, [labels[i]!, id]);
    expect((await exportFacts(store, s.study)).sessions).toEqual(['B', '_a', 'b']);
  });

  it('pages participants by code case-folded, finds them whatever the case, and puts "never" first ascending', async () => {
    const page = async (over: object) =>
      (
        await participantPage(
          store,
          { studyId: s.study, sort: 'code', dir: 'asc', offset: 0, limit: 10, ...over },
          Date.parse(AT),
        )
      ).rows.map((r) => r.code);
    expect(await page({})).toEqual(['_c', 'A', 'b', 'z']);
    expect(await page({ dir: 'desc' })).toEqual(['z', 'b', 'A', '_c']);
    expect(await page({ search: 'a' })).toEqual(['A']);
    expect(await page({ search: '_' })).toEqual(['_c']);
    expect((await page({ sort: 'last_recording' }))[0]).toBe('z');
    expect((await page({ sort: 'last_recording', dir: 'desc' })).at(-1)).toBe('z');
    expect(await page({ filter: 'overdue', overdueIds: [s.participant['b']!, s.participant['z']!] })).toEqual(
      ['b', 'z'],
    );
  });

  it('finds the same content elsewhere, with and without a participant to leave out (IS NOT with NULL)', async () => {
    const sha = String(2).padStart(64, '0');
    expect((await findSameContentElsewhere(store, sha, s.study, null)).map((r) => r.participantCode)).toEqual(
      ['A', '_c'],
    );
    expect(
      (await findSameContentElsewhere(store, sha, s.study, s.participant['A']!)).map(
        (r) => r.participantCode,
      ),
    ).toEqual(['_c']);
  });

  it('pages recordings by participant and by file, searches paths whatever the case, and reads their analyses', async () => {
    const page = async (over: object) =>
      (
        await recordingPage(store, {
          studyId: s.study,
          sort: 'participant',
          dir: 'asc',
          offset: 0,
          limit: 10,
          ...over,
        })
      ).rows.map((r) => r.participantCode);
    expect(await page({})).toEqual(['_c', 'A', 'b']);
    expect(await page({ sort: 'file' })).toEqual(['A', '_c', 'b']);
    expect(await page({ search: 'take1' })).toEqual(['b']);
    const [b] = await recordingRows(store, [s.ids[0]!]);
    expect(b!.analyses.map((a) => [a.type, a.state])).toEqual([
      ['wellbeing', 'completed'],
      ['parkinsons', 'processing'],
    ]);
    expect((await recordingRows(store, [s.ids[2]!]))[0]!.analyses).toEqual([]);
  });

  it('replaces the flags of no analysis type (IS with NULL) and reads answers as received under their names', async () => {
    const flag = (path: string) => ({
      code: 'unknown_field' as const,
      path,
      measures: [],
      received: null,
      expected: 'x',
    });
    const [b] = s.ids as [number];
    await replaceFlags(store, AT, b, 'receipt', null, [flag('first')]);
    await replaceFlags(store, AT, b, 'receipt', null, [flag('second')]);
    expect((await flagsOfRecordings(store, [b])).get(b)!.map((f) => f.path)).toEqual(['second']);
    expect(await answersAsReceived(store, [b])).toEqual([
      { recordingId: b, name: 'wellbeing', listed: true, receivedStatus: 'ok', raw: '{"w":1}' },
    ]);
  });

  it("reads a batch's clock offset in seconds, its states, and the due polls with their types", async () => {
    const progress = (await batchProgress(store, s.batch))!;
    expect(progress.uploads).toEqual({ uploaded: 2, pending: 1 });
    // 90 s and 30 s between the service's acceptance and the upload's end: 60 s on average.
    expect(progress.serviceClockOffsetSeconds).toBe(60);
    expect(await recordingStateCounts(store, s.study)).toEqual(
      await recordingStateCounts(store, s.study, progress.batchId),
    );
    const due = await duePolls(store, 1, AT, 10);
    expect(due.map((d) => [d.id, d.types.split(',').sort().join(',')])).toEqual([
      [s.ids[0], 'parkinsons'],
      [s.ids[1], 'wellbeing'],
    ]);
  });

  it('reads whether work is pending as booleans, and what a study used under camelCase names', async () => {
    expect(await pendingWork(store, 1)).toEqual({ uploads: false, polls: true });
    expect(await usageByStudy(store, 1)).toEqual([
      { studyId: 3, name: '_x', uploadsAccepted: 0, uploadsUncertain: 0, queued: 0 },
      { studyId: 2, name: 'alpha', uploadsAccepted: 2, uploadsUncertain: 0, queued: 1 },
      { studyId: 1, name: 'Beta', uploadsAccepted: 0, uploadsUncertain: 0, queued: 0 },
    ]);
  });

  it('reads visit facts with their analyses and whether a visit was set by hand (a 0/1 flag)', async () => {
    const facts = await recordingVisitFactsOfParticipant(store, s.participant['b']!);
    expect(facts.map((f) => [f.analyses.slice().sort(), f.override])).toEqual([
      [['completed', 'processing'], undefined],
    ]);
  });

  it("reads a participant's values of the keys asked for, and exports values as one JSON object", async () => {
    const values = await timelineValuesOf(store, s.participant['b']!, ['wellbeing.score']);
    expect(values.map((v) => [v.measure_key, v.value_num])).toEqual([['wellbeing.score', 0.1]]);
    const exported = [];
    for await (const r of selectedRecordings(store, { studyId: s.study })) exported.push(r);
    expect(
      exported.map((e) => [e.r.participant, e.values, e.pairs.map((p) => `${p.type}:${p.state}`)]),
    ).toEqual([
      ['A', {}, ['wellbeing:processing']],
      [
        'b',
        { 'wellbeing.score': 0.1, 'wellbeing.label': 'calm' },
        ['wellbeing:completed', 'parkinsons:processing'],
      ],
    ]);
  });

  it('finds the merges into a participant by the id inside the JSON, and notes an uncertain upload resolved', async () => {
    const into = s.participant['A']!;
    await store.run(
      `INSERT INTO curation_acts (study_id, at, who, act, participant_id, before, after) VALUES (?, ?, 'me', 'merge', ?, '{}', ?)`,
      [s.study, AT, s.participant['z']!, JSON.stringify({ into: { id: into, code: 'A' } })],
    );
    expect((await curationActsOfParticipant(store, into)).map((a) => a.act)).toEqual(['merge']);
    const c = s.ids[2]!;
    await store.run(
      `UPDATE recordings SET upload_state = 'upload_uncertain', upload_error = NULL WHERE id = ?`,
      [c],
    );
    const before = await databaseVersion(store);
    expect(await databaseVersion(store)).toBe(before);
    expect(await resolveUncertain(store, c, 'mark_uploaded_elsewhere')).toBe(true);
    expect(await databaseVersion(store)).not.toBe(before);
    const error = (await store.get<{ e: string }>(`SELECT upload_error AS e FROM recordings WHERE id = ?`, [
      c,
    ]))!;
    expect(JSON.parse(error.e)).toEqual({ resolution: 'mark_uploaded_elsewhere' });
    expect((await usageByStudy(store, 1)).find((u) => u.studyId === s.study)!.uploadsAccepted).toBe(3);
  });

  it("tells a second row with a unique column's value apart from any other refusal", async () => {
    const [b, a] = s.ids as [number, number];
    const refusal = (sql: string, params: (string | number)[]) =>
      store.run(sql, params).then(
        () => null,
        (e: unknown) => e,
      );
    await store.run(`UPDATE recordings SET recording_id = 'svc-dialect-1' WHERE id = ?`, [b]);
    const twice = await refusal(`UPDATE recordings SET recording_id = 'svc-dialect-1' WHERE id = ?`, [a]);
    expect(store.dialect.isUniqueViolation(twice, 'recordings', 'recording_id')).toBe(true);
    expect(store.dialect.isUniqueViolation(twice, 'recordings', 'content_sha256')).toBe(false);
    expect(store.dialect.isUniqueViolation(twice, 'participants', 'recording_id')).toBe(false);
    const unknownStudy = await refusal(
      `INSERT INTO participants (study_id, code, created_at) VALUES (?, 'q', 'x')`,
      [999],
    );
    expect(unknownStudy).not.toBeNull();
    expect(store.dialect.isUniqueViolation(unknownStudy, 'participants', 'code')).toBe(false);
    expect(
      store.dialect.isUniqueViolation(new Error('recordings.recording_id'), 'recordings', 'recording_id'),
    ).toBe(false);
  });

  it('claims each due poll once, moving its next poll on (the last test: it changes the schedule)', async () => {
    const hold = '2026-01-06T00:00:05.000Z';
    const first = await claimDuePoll(store, 1, AT, hold);
    const second = await claimDuePoll(store, 1, AT, hold);
    expect([first?.id, second?.id].sort()).toEqual([s.ids[0], s.ids[1]].sort());
    expect(first!.accepted_at).toMatch(/^2026-01-0[12]T10:00:00.000Z$/);
    expect(await claimDuePoll(store, 1, AT, hold)).toBeNull();
    expect(await duePolls(store, 1, AT, 10)).toEqual([]);
    expect((await duePolls(store, 1, hold, 10)).map((d) => d.id).sort()).toEqual([s.ids[0], s.ids[1]].sort());
  });

  it('takes request tokens one at a time, refilled by the time passed, never above the burst', async () => {
    const bucket = { profileId: 1, kind: 'requests' as const, ratePerSecond: 2, burst: 2 };
    const take = (at: string) => takeBudgetToken(store, bucket, at);
    expect(await take(AT)).toEqual({ tokens: 1, pausedUntil: null });
    expect((await take(AT)).tokens).toBe(0);
    expect((await take(AT)).tokens).toBe(-1);
    expect((await take('2026-01-06T00:00:01.500Z')).tokens).toBe(1); // -1 + 3 refilled, - 1
    expect((await take('2026-01-06T00:01:00.000Z')).tokens).toBe(1); // full (2), - 1
    await refundBudgetToken(store, bucket);
    await refundBudgetToken(store, bucket);
    await pauseBudget(store, 1, '2026-01-06T00:02:00.000Z');
    await pauseBudget(store, 1, '2026-01-06T00:01:30.000Z'); // an earlier end does not shorten it
    expect(await take('2026-01-06T00:01:00.000Z')).toEqual({
      tokens: 1,
      pausedUntil: '2026-01-06T00:02:00.000Z',
    });
  });
});
