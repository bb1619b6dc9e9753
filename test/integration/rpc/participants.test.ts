/**
 * participants.*: the researcher's list of participants (paged, sorted, filtered, searched, with counts
 * and data recency) and their edits (create, rename, notes, link an existing account, create missing
 * accounts), through the router as the window calls them, on a real temporary study database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { startLabSandbox, createSandboxStudy } from '../../support/lab-sandbox';
import { testEngine } from '../../support/test-engine';
import { openTestHost, type TestHost } from './test-host';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from './seed';

let t: TestHost;
beforeEach(async () => {
  t = await openTestHost({ now: NOW });
});
afterEach(async () => {
  await t.close();
});

const page = (
  studyId: number,
  o: Partial<{
    search: string;
    filter: 'all' | 'overdue' | 'never' | 'no_account' | 'needs_attention';
    sort: 'code' | 'recordings' | 'last_recording' | 'created';
    dir: 'asc' | 'desc';
    offset: number;
    limit: number;
  }> = {},
) =>
  t.must('participants.page', {
    studyId,
    sort: o.sort ?? 'code',
    dir: o.dir ?? 'asc',
    offset: o.offset ?? 0,
    limit: o.limit ?? 100,
    ...(o.search !== undefined ? { search: o.search } : {}),
    ...(o.filter ? { filter: o.filter } : {}),
  });
const codes = async (...a: Parameters<typeof page>) => (await page(...a)).rows.map((r) => r.code);

/**
 * A study with a 7-day interval: A recorded 2 days ago (on track), B 20 days ago (2 missed sessions),
 * C never, d (lower case, no account) 8 days ago with a refused file and a cancelled one.
 */
const seedSmallStudy = async () => {
  const s = await seedStudy(t.store, 'Small', 7);
  const a = await seedParticipant(t.store, s, 'A-01', {
    accountId: '11111111-1111-4111-8111-111111111111',
    createdAt: daysAgo(30),
  });
  const b = await seedParticipant(t.store, s, 'B-02', {
    accountId: '22222222-2222-4222-8222-222222222222',
    createdAt: daysAgo(40),
  });
  const c = await seedParticipant(t.store, s, 'C-03', {
    accountId: '33333333-3333-4333-8333-333333333333',
    createdAt: daysAgo(10),
  });
  const d = await seedParticipant(t.store, s, 'd-04', { createdAt: daysAgo(20) });
  for (const [i, at] of [16, 9, 2].entries()) {
    const r = await seedRecording(t.store, s, a, { recordedAt: daysAgo(at) });
    await storeValues(t.store, r, 'wellbeing', { wb_stress: 'low' });
    if (i < 2) await storeValues(t.store, r, 'parkinsons', { pd_hnr: 10 });
  }
  await seedRecording(t.store, s, b, { recordedAt: daysAgo(20), analyses: { wellbeing: 'error' } });
  await seedRecording(t.store, s, d, { recordedAt: daysAgo(8), uploadState: 'refused_locally' });
  await seedRecording(t.store, s, d, { recordedAt: daysAgo(1), uploadState: 'cancelled' });
  return { s, a, b, c, d };
};

describe('participants.page', () => {
  it('gives each participant their recordings, fully analysed, needing the researcher, first and last recording and recency', async () => {
    const { s } = await seedSmallStudy();
    const { rows, total } = await page(s);
    expect(total).toBe(4);
    const by = Object.fromEntries(rows.map((r) => [r.code, r]));
    // A: 3 recordings, 2 fully analysed (the last one's Parkinson's analysis is still processing).
    expect(by['A-01']).toMatchObject({
      recordings: 3,
      completed: 2,
      needsAttention: 0,
      firstRecordingAt: daysAgo(16),
      lastRecordingAt: daysAgo(2),
      recency: { status: 'no_schedule', daysSinceLast: 2, missedVisits: 0 },
    });
    // B: a failed analysis is not "fully analysed", not a file that needs the researcher, and not a
    // usable recording: recency counts only usable ones.
    expect(by['B-02']).toMatchObject({
      recordings: 1,
      completed: 0,
      needsAttention: 0,
      lastRecordingAt: daysAgo(20),
      recency: { status: 'never', daysSinceLast: null, missedVisits: 0 },
    });
    expect(by['C-03']).toMatchObject({
      recordings: 0,
      completed: 0,
      firstRecordingAt: null,
      lastRecordingAt: null,
      recency: { status: 'never', daysSinceLast: null, missedVisits: 0 },
    });
    // d: the cancelled file does not count, the refused one counts and needs the researcher, but is
    // not a usable recording.
    expect(by['d-04']).toMatchObject({
      accountId: null,
      recordings: 1,
      needsAttention: 1,
      lastRecordingAt: daysAgo(8),
      recency: { status: 'never', missedVisits: 0 },
    });
  });

  it('sorts by code without regard to case, by recordings, by last recording (never first when ascending) and by creation', async () => {
    const { s } = await seedSmallStudy();
    expect(await codes(s, { sort: 'code' })).toEqual(['A-01', 'B-02', 'C-03', 'd-04']);
    expect(await codes(s, { sort: 'code', dir: 'desc' })).toEqual(['d-04', 'C-03', 'B-02', 'A-01']);
    expect(await codes(s, { sort: 'recordings', dir: 'desc' })).toEqual(['A-01', 'd-04', 'B-02', 'C-03']);
    expect(await codes(s, { sort: 'last_recording' })).toEqual(['C-03', 'B-02', 'd-04', 'A-01']);
    expect(await codes(s, { sort: 'last_recording', dir: 'desc' })).toEqual(['A-01', 'd-04', 'B-02', 'C-03']);
    expect(await codes(s, { sort: 'created' })).toEqual(['B-02', 'A-01', 'd-04', 'C-03']);
  });

  it('filters overdue, never recorded, without account and needing the researcher', async () => {
    const { s } = await seedSmallStudy();
    // Overdue and never count usable recordings only: B's failed analysis and d's refused file are not.
    expect(await codes(s, { filter: 'overdue' })).toEqual([]);
    expect(await codes(s, { filter: 'never' })).toEqual(['B-02', 'C-03', 'd-04']);
    expect(await codes(s, { filter: 'no_account' })).toEqual(['d-04']);
    expect(await codes(s, { filter: 'needs_attention' })).toEqual(['d-04']);
  });

  it('counts only active participants while the study runs as overdue or never recorded', async () => {
    const { s, a, c } = await seedSmallStudy();
    // A visit 3 days after each baseline: A (baseline 16 days ago), B (20) and d (8) missed it.
    await t.must('visits.setSchedule', {
      studyId: s,
      visits: [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 0 },
        { name: 'Day 3', targetDay: 3, windowBefore: 0, windowAfter: 0 },
      ],
    });
    expect(await codes(s, { filter: 'overdue' })).toEqual(['A-01', 'B-02', 'd-04']);
    expect((await page(s)).rows.find((r) => r.code === 'A-01')!.recency).toEqual({
      status: 'overdue',
      daysSinceLast: 2,
      missedVisits: 1,
    });
    await t.must('visits.setStatus', { participantId: a, status: 'completed', on: '2026-05-31' });
    await t.must('visits.setStatus', {
      participantId: c,
      status: 'withdrawn',
      on: '2026-05-31',
      reason: 'ill',
    });
    expect(await codes(s, { filter: 'overdue' })).toEqual(['B-02', 'd-04']);
    expect(await codes(s, { filter: 'never' })).toEqual(['B-02', 'd-04']);
    const row = (await page(s)).rows.find((r) => r.code === 'A-01')!;
    expect(row.recency).toEqual({ status: 'not_followed', daysSinceLast: 2, missedVisits: 0 });
    const [view] = await t.must('studies.list', {});
    expect(view!.overdueParticipants).toBe(2);
    await t.must('visits.setPeriod', { studyId: s, startDate: '2026-07-01', endDate: null, timeZone: 'UTC' });
    expect(await codes(s, { filter: 'never' })).toEqual([]);
    expect(await codes(s, { filter: 'overdue' })).toEqual([]);
  });

  it('without a visit schedule nobody is overdue, whatever the session interval', async () => {
    const { s } = await seedSmallStudy();
    await t.store.run(`UPDATE studies SET session_interval_days = 1 WHERE id = ?`, [s]);
    expect(await codes(s, { filter: 'overdue' })).toEqual([]);
    const [view] = await t.must('studies.list', {});
    expect(view!.overdueParticipants).toBe(0);
  });

  it('searches codes as typed (case-insensitive, trimmed, % and _ taken literally) and only in this study', async () => {
    const { s } = await seedSmallStudy();
    const other = await seedStudy(t.store, 'Other');
    await seedParticipant(t.store, other, 'A-99');
    await seedParticipant(t.store, s, 'X_1');
    await seedParticipant(t.store, s, 'X%1');
    await seedParticipant(t.store, s, 'XA1');
    expect(await codes(s, { search: ' a-0 ' })).toEqual(['A-01']);
    expect(await codes(s, { search: 'X_' })).toEqual(['X_1']);
    expect(await codes(s, { search: 'X%' })).toEqual(['X%1']);
    expect(await codes(s, { search: 'nobody' })).toEqual([]);
  });

  it('pages: the same total on every page, rows in order without gaps, nothing past the end', async () => {
    const s = await seedStudy(t.store, 'Paged');
    for (let i = 0; i < 250; i++) await seedParticipant(t.store, s, `P-${String(i).padStart(3, '0')}`);
    const pages = await Promise.all([0, 100, 200].map((offset) => page(s, { offset, limit: 100 })));
    expect(pages.map((p) => p.total)).toEqual([250, 250, 250]);
    expect(pages.flatMap((p) => p.rows.map((r) => r.code))).toEqual(
      Array.from({ length: 250 }, (_, i) => `P-${String(i).padStart(3, '0')}`),
    );
    expect(await page(s, { offset: 300 })).toEqual({ rows: [], total: 250 });
    expect(
      (await t.call('participants.page', { studyId: s, sort: 'code', dir: 'asc', offset: 0, limit: 501 })).ok,
    ).toBe(false);
  });
});

describe('the figures kept on each participant (migration 0040)', () => {
  /** The same figures computed from the recordings, independently of the triggers. */
  const oracle = (studyId: number) =>
    t.store.all(
      `SELECT p.code,
       (SELECT count(*) FROM recordings r WHERE r.participant_id = p.id AND r.upload_state <> 'cancelled') AS recordings,
       (SELECT count(*) FROM recordings r WHERE r.participant_id = p.id AND r.upload_state = 'uploaded'
          AND (SELECT count(*) FROM analyses a WHERE a.recording_id = r.id AND a.state NOT IN ('completed', 'not_requested')) = 0) AS completed,
       (SELECT count(*) FROM recordings r WHERE r.participant_id = p.id AND r.upload_state IN ('refused_locally', 'rejected', 'upload_uncertain', 'duplicate')) AS "needsAttention",
       (SELECT max(recorded_at) FROM recordings r WHERE r.participant_id = p.id AND r.upload_state <> 'cancelled') AS "lastRecordingAt"
     FROM participants p WHERE p.study_id = ? ORDER BY p.code`,
      [studyId],
    );
  const shown = async (studyId: number) =>
    (await page(studyId, { limit: 500 })).rows.map(
      ({ code, recordings, completed, needsAttention, lastRecordingAt }) => ({
        code,
        recordings,
        completed,
        needsAttention,
        lastRecordingAt,
      }),
    );

  it('stay equal to the recordings through uploads, results, refusals, cancellations, moves, date changes and deletions', async () => {
    const s = await seedStudy(t.store, 'Churn');
    const ps: number[] = [];
    for (let i = 0; i < 6; i++) ps.push(await seedParticipant(t.store, s, `P${i}`));
    let rand = 42;
    const next = (n: number) => {
      rand = (rand * 1103515245 + 12345) % 2 ** 31;
      return rand % n;
    };
    const recs: number[] = [];
    const states = [
      'uploaded',
      'uploaded',
      'uploaded',
      'queued',
      'uploading',
      'uploaded',
      'rejected',
      'upload_uncertain',
      'duplicate',
      'cancelled',
      'refused_locally',
    ];
    const aStates = ['processing', 'completed', 'error', 'timed_out', 'not_requested'];
    for (let step = 0; step < 300; step++) {
      const op = next(7);
      if (op === 0 || recs.length < 3) {
        recs.push(
          await seedRecording(t.store, s, ps[next(ps.length)]!, {
            recordedAt: daysAgo(next(60)),
            uploadState: states[next(states.length)]!,
            analyses: { wellbeing: aStates[next(5)]!, parkinsons: aStates[next(5)]! },
          }),
        );
      } else {
        const r = recs[next(recs.length)]!;
        if (op === 1)
          await t.store.run(`UPDATE recordings SET upload_state = ? WHERE id = ?`, [
            states[next(states.length)]!,
            r,
          ]);
        if (op === 2)
          await t.store.run(`UPDATE analyses SET state = ? WHERE recording_id = ? AND type = ?`, [
            aStates[next(5)]!,
            r,
            next(2) ? 'wellbeing' : 'parkinsons',
          ]);
        if (op === 3)
          await t.store.run(`UPDATE recordings SET recorded_at = ? WHERE id = ?`, [daysAgo(next(60)), r]);
        if (op === 4)
          await t.store.run(`UPDATE recordings SET participant_id = ? WHERE id = ?`, [
            ps[next(ps.length)]!,
            r,
          ]);
        if (op === 5)
          await t.store.run(`DELETE FROM analyses WHERE recording_id = ? AND type = 'wellbeing'`, [r]);
        if (op === 6) {
          await t.store.run(`DELETE FROM recordings WHERE id = ?`, [r]);
          recs.splice(recs.indexOf(r), 1);
        }
      }
      expect(await shown(s), `after step ${step} (operation ${op})`).toEqual(await oracle(s));
    }
    expect(await shown(s)).toEqual(await oracle(s));
    // Deleting a participant with recordings leaves nothing behind.
    await t.store.run(`DELETE FROM participants WHERE id = ?`, [ps[0]!]);
    expect(await shown(s)).toEqual(await oracle(s));
  });

  it('follow results as the poller stores them: a recording counts as fully analysed when its last analysis completes', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    const r = await seedRecording(t.store, s, p, { recordedAt: daysAgo(1) });
    expect((await page(s)).rows[0]).toMatchObject({ recordings: 1, completed: 0 });
    await storeValues(t.store, r, 'wellbeing', { wb_stress: 'low' });
    expect((await page(s)).rows[0]).toMatchObject({ completed: 0 });
    await storeValues(t.store, r, 'parkinsons', { pd_hnr: 12 });
    expect((await page(s)).rows[0]).toMatchObject({ completed: 1 });
  });

  it('are filled in for a study database written before migration 0040', () => {
    const { db } = openStudyDb(':memory:');
    db.close();
    const old = new (db.constructor as new (p: string) => typeof db)(':memory:');
    old.pragma('foreign_keys = ON');
    migrate(old, MIGRATIONS, 30);
    old.prepare(`INSERT INTO studies (id, name, created_at) VALUES (1, 'S', 'now')`).run();
    old
      .prepare(
        `INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', 'now'), (2, 1, 'P2', 'now')`,
      )
      .run();
    const add = old.prepare(
      `INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at) VALUES (?, 1, 1, 'x', ?, 1, ?, 'manifest', ?, 'now')`,
    );
    add.run(1, 'a', '2026-01-01T00:00:00.000Z', 'uploaded');
    add.run(2, 'b', '2026-02-01T00:00:00.000Z', 'rejected');
    add.run(3, 'c', '2026-03-01T00:00:00.000Z', 'cancelled');
    old
      .prepare(
        `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (1, 'wellbeing', 'completed', 'now')`,
      )
      .run();
    migrate(old, MIGRATIONS);
    expect(
      old
        .prepare(
          `SELECT code, rec_count, rec_done, rec_attention, first_recording_at, last_recording_at FROM participants ORDER BY id`,
        )
        .all(),
    ).toEqual([
      {
        code: 'P1',
        rec_count: 2,
        rec_done: 1,
        rec_attention: 1,
        first_recording_at: '2026-01-01T00:00:00.000Z',
        last_recording_at: '2026-02-01T00:00:00.000Z',
      },
      {
        code: 'P2',
        rec_count: 0,
        rec_done: 0,
        rec_attention: 0,
        first_recording_at: null,
        last_recording_at: null,
      },
    ]);
    old.close();
  });

  // SQLite only: it reads SQLite's own query plans (PostgreSQL's planner and EXPLAIN are another matter).
  it.skipIf(testEngine() === 'pglite')(
    'let a page of a large study come from an index, not from the recordings',
    () => {
      const plan = (sql: string) =>
        (t.db!.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
          .map((r) => r.detail)
          .join(' | ');
      expect(
        plan(
          `SELECT id FROM participants p WHERE p.study_id = 1 ORDER BY p.last_recording_at DESC, p.code COLLATE NOCASE DESC LIMIT 100`,
        ),
      ).toMatch(/participants_by_study_last/);
      expect(
        plan(
          `SELECT id FROM participants p WHERE p.study_id = 1 ORDER BY p.rec_count, p.code COLLATE NOCASE LIMIT 100`,
        ),
      ).toMatch(/participants_by_study_recordings/);
      expect(
        plan(
          `SELECT id FROM participants p WHERE p.study_id = 1 AND p.last_recording_at < '2026' ORDER BY p.last_recording_at LIMIT 100`,
        ),
      ).not.toMatch(/recordings /);
    },
  );
});

describe('participants.create, rename and setNotes', () => {
  it('creates a participant with a trimmed code and refuses a code the study already has, saying what to do', async () => {
    const s = await seedStudy(t.store);
    const p = await t.must('participants.create', { studyId: s, code: '  P-001 ' });
    expect(p).toMatchObject({
      code: 'P-001',
      accountId: null,
      recordings: 0,
      recency: { status: 'never' },
      notes: '',
    });
    const again = await t.call('participants.create', { studyId: s, code: 'P-001' });
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: 'CONFLICT',
        message: 'The code "P-001" is already used in this study.',
        action: expect.stringMatching(/another code/),
      },
    });
    expect(await t.call('participants.create', { studyId: s, code: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await t.call('participants.create', { studyId: s, code: 'x'.repeat(65) })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await t.call('participants.create', { studyId: 999, code: 'P-002' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    // The same code in another study is fine.
    expect(
      (await t.call('participants.create', { studyId: await seedStudy(t.store, 'Other'), code: 'P-001' })).ok,
    ).toBe(true);
  });

  it('renames, keeps the recordings, and refuses a code taken by someone else', async () => {
    const { s, a } = await seedSmallStudy();
    expect(await t.must('participants.rename', { participantId: a, code: 'A-01b' })).toMatchObject({
      code: 'A-01b',
      recordings: 3,
    });
    expect(await t.must('participants.rename', { participantId: a, code: 'A-01b' })).toMatchObject({
      code: 'A-01b',
    });
    expect(await t.call('participants.rename', { participantId: a, code: 'B-02' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT' },
    });
    expect(await t.call('participants.rename', { participantId: 999, code: 'Z' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await codes(s)).toEqual(['A-01b', 'B-02', 'C-03', 'd-04']);
  });

  it('keeps notes', async () => {
    const { a } = await seedSmallStudy();
    expect(
      await t.must('participants.setNotes', { participantId: a, notes: 'Moved to site 2 in May.' }),
    ).toMatchObject({ notes: 'Moved to site 2 in May.' });
    expect(await t.must('participants.get', { participantId: a })).toMatchObject({
      notes: 'Moved to site 2 in May.',
    });
    expect(await t.call('participants.setNotes', { participantId: 999, notes: '' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});

describe('participants.linkAccount', () => {
  const ACC = '3F2B1C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D';

  it('links an existing account (stored lower case), queues the files that waited for it and logs it', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    const waiting = await seedRecording(t.store, s, p, { recordedAt: daysAgo(3), uploadState: 'pending' });
    expect(await t.must('participants.linkAccount', { participantId: p, accountId: ACC })).toMatchObject({
      accountId: ACC.toLowerCase(),
    });
    expect(await t.store.get(`SELECT upload_state FROM recordings WHERE id = ?`, [waiting])).toEqual({
      upload_state: 'queued',
    });
    expect(await t.store.all(`SELECT kind FROM event_log WHERE kind = 'account_linked'`)).toHaveLength(1);
    // Linking the same account again changes nothing and is not an error.
    expect(
      (await t.call('participants.linkAccount', { participantId: p, accountId: ACC.toLowerCase() })).ok,
    ).toBe(true);
  });

  it('explains each refusal: not a UUID, the account belongs to another participant, the participant already has one', async () => {
    const s = await seedStudy(t.store);
    const p1 = await seedParticipant(t.store, s, 'P-1', { accountId: ACC.toLowerCase() });
    const p2 = await seedParticipant(t.store, s, 'P-2');
    expect(
      await t.call('participants.linkAccount', { participantId: p2, accountId: 'not-a-uuid' }),
    ).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(await t.call('participants.linkAccount', { participantId: p2, accountId: ACC })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', message: expect.stringMatching(/already linked to another participant/) },
    });
    expect(
      await t.call('participants.linkAccount', {
        participantId: p1,
        accountId: '11111111-1111-4111-8111-111111111111',
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'CONFLICT',
        message: expect.stringMatching(/already has a service account/),
        action: expect.stringMatching(/new participant/),
      },
    });
    expect(await t.call('participants.linkAccount', { participantId: 999, accountId: ACC })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect((await t.must('participants.get', { participantId: p2 })).accountId).toBeNull();
  });
});

describe('participants.createAccounts', () => {
  it('creates one account per participant with a file to send, and marks an unknown outcome for a decision', async () => {
    const sandbox = await startLabSandbox({ scenario: { preset: 'fast' } });
    try {
      const { studyId } = await createSandboxStudy(t.host.service, sandbox, 'Accounts');
      for (const c of ['P-1', 'P-2', 'P-3', 'P-4']) {
        const p = await t.must('participants.create', { studyId, code: c });
        // P-4 has nothing to send: no account is created for it.
        if (c !== 'P-4')
          await t.store.run(
            `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
               VALUES (?, ?, ?, ?, 1, '2026-01-01T00:00:00.000Z', 'manifest', 'pending', '2026-01-01T00:00:00.000Z')`,
            [studyId, p.id, `/f/${c}.wav`, c.padStart(64, '0')],
          );
      }
      const first = await t.must('participants.createAccounts', { studyId, codes: ['P-1', 'P-2', 'P-4'] });
      expect(first.created.map((c) => c.code).sort()).toEqual(['P-1', 'P-2']);
      expect(first.failed).toEqual([]);
      expect((await page(studyId, { filter: 'no_account' })).rows.map((r) => r.code)).toEqual(['P-3', 'P-4']);
      // The account's id is kept on the participant only: the event log, which a team's analysts and
      // monitors read, does not repeat it.
      const created = await t.store.all<{ detail: string }>(
        `SELECT detail FROM event_log WHERE study_id = ? AND kind = 'account_created'`,
        [studyId],
      );
      expect(created).toHaveLength(2);
      for (const e of created) expect(JSON.parse(e.detail)).not.toHaveProperty('account_id');

      sandbox.setScenario({ preset: 'fast', faults: { createAccount: { http500: 1 } } });
      const second = await t.must('participants.createAccounts', { studyId });
      expect(second.created).toEqual([]);
      expect(second.failed).toEqual([]);
      expect(second.uncertain).toEqual([
        expect.objectContaining({ code: 'P-3', summary: expect.any(String), action: expect.any(String) }),
      ]);
      const [uncertain] = await t.must('participants.uncertainAccounts', { studyId });
      expect(uncertain).toMatchObject({ participantCode: 'P-3', resolution: null, error: { status: 500 } });

      sandbox.setScenario({ preset: 'fast' });
      await t.must('participants.resolveUncertainAccount', {
        participantId: uncertain!.participantId,
        decision: 'retry',
      });
      expect(await t.must('participants.uncertainAccounts', { studyId })).toEqual([]);
      expect((await page(studyId, { filter: 'no_account' })).rows.map((r) => r.code)).toEqual(['P-4']);
    } finally {
      await sandbox.close();
    }
  });
});
