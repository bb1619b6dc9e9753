/**
 * A small study run through the services: a weekly schedule, participants who record, miss, are refused
 * locally and by the service, fail, wait, withdraw or never start, and one recording moved to its visit by
 * the researcher. visits.csv must hold every expected visit exactly once, with its recording or the right
 * missing-data code and detail; completeness.csv must count them; the per-recording files carry the visit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../../main/export/run-export';
import type { ExportReport } from '../../../shared/export';
import { MISSING_REASONS } from '../../../shared/missing-data';
import { readCsv, tempDir, type ParsedCsv } from '../export/helpers';
import { NOW, seedParticipant, seedRecording, seedStudy, storeValues } from '../rpc/seed';
import { openTestHost, type TestHost } from '../rpc/test-host';

/** NOW is 2026-06-01 12:00 UTC. */
const at = (date: string) => `${date}T10:00:00.000Z`;
const refusedVerdict = {
  status: 'refused' as const,
  findings: [
    {
      code: 'speech_too_short',
      severity: 'refuse' as const,
      message: 'Too little speech.',
      action: 'Record again.',
      fixedByConversion: false,
    },
  ],
};

let t: TestHost;
let tmp: ReturnType<typeof tempDir>;
let report: ExportReport;
let studyId: number;
const rec: Record<string, number> = {};
const pid: Record<string, number> = {};

const usable = async (p: string, date: string, session?: string) => {
  const id = await seedRecording(t.store, studyId, pid[p]!, {
    recordedAt: at(date),
    analyses: { wellbeing: 'completed' },
    ...(session ? { session } : {}),
  });
  await storeValues(t.store, id, 'wellbeing', { wellbeing_energy: 0.5 });
  return id;
};

beforeAll(async () => {
  t = await openTestHost({ now: NOW });
  tmp = tempDir('vs-visits-');
  studyId = await seedStudy(t.store, 'Weekly');
  for (const p of ['P01', 'P02', 'P03', 'P04', 'P05']) pid[p] = await seedParticipant(t.store, studyId, p);
  await t.must('visits.setSchedule', {
    studyId,
    visits: [
      { name: 'Week 1', targetDay: 7, windowBefore: 2, windowAfter: 2 },
      { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 2 },
      { name: 'Week 2', targetDay: 14, windowBefore: 2, windowAfter: 2 },
      { name: 'Week 3', targetDay: 21, windowBefore: 2, windowAfter: 2 },
    ],
  });
  await t.must('visits.setPeriod', {
    studyId,
    startDate: '2026-05-01',
    endDate: '2026-07-31',
    timeZone: 'UTC',
  });

  // P01: baseline 05-04, week 1 by its session label, week 2 refused locally, week 3 never recorded.
  rec['P01.bl'] = await usable('P01', '2026-05-04');
  rec['P01.w1'] = await usable('P01', '2026-05-12', 'week 1');
  rec['P01.w2'] = await seedRecording(t.store, studyId, pid['P01']!, {
    recordedAt: at('2026-05-18'),
    uploadState: 'refused_locally',
    verdict: refusedVerdict,
  });
  // P02: baseline 05-18, week 1 refused by the service, weeks 2 and 3 not yet due.
  rec['P02.bl'] = await usable('P02', '2026-05-18');
  rec['P02.w1'] = await seedRecording(t.store, studyId, pid['P02']!, {
    recordedAt: at('2026-05-25'),
    uploadState: 'rejected',
  });
  await t.store.run(`UPDATE recordings SET upload_error = ? WHERE id = ?`, [
    JSON.stringify({ kind: 'TooLarge', endpoint: 'upload', status: 413 }),
    rec['P02.w1'],
  ]);
  // P03: baseline 05-04, week 1 missed, withdrawn on 05-20 (inside week 2's window).
  rec['P03.bl'] = await usable('P03', '2026-05-04');
  await t.must('visits.setStatus', {
    participantId: pid['P03']!,
    status: 'withdrawn',
    on: '2026-05-20',
    reason: 'moved away',
  });
  // P03 again: a recording dated the day after the withdrawal (in no visit's window).
  rec['P03.late'] = await usable('P03', '2026-05-21');
  // P04: enrolled, nothing yet. P05: baseline 05-11; a recording on day 4 (in no window) the researcher
  // moves to week 1; week 2's analysis failed; week 3's still processing.
  await t.must('visits.setStatus', { participantId: pid['P04']!, status: 'enrolled', on: '2026-05-28' });
  rec['P05.bl'] = await usable('P05', '2026-05-11');
  rec['P05.w1'] = await usable('P05', '2026-05-15');
  rec['P05.w2'] = await seedRecording(t.store, studyId, pid['P05']!, {
    recordedAt: at('2026-05-25'),
    analyses: { wellbeing: 'error' },
  });
  rec['P05.w3'] = await seedRecording(t.store, studyId, pid['P05']!, {
    recordedAt: at('2026-06-01'),
    analyses: { wellbeing: 'processing' },
  });
  const before = await t.must('visits.participant', { participantId: pid['P05']! });
  expect(before.recordings.find((r) => r.recordingId === rec['P05.w1'])).toMatchObject({
    visit: null,
    source: 'none',
    daysSinceBaseline: 4,
  });
  const weeks = await t.must('visits.design', { studyId });
  await t.must('visits.setAssignment', {
    recordingId: rec['P05.w1']!,
    visitId: weeks.visits.find((v) => v.name === 'Week 1')!.id,
  });

  const r = await runExport(
    t.host.service,
    { studyId, timeZone: 'UTC' },
    { outDir: tmp.dir, folderName: 'out', appVersion: 'test', now: () => NOW },
  );
  if (!r.ok) throw new Error(r.error.message);
  report = r.value;
}, 60_000);

afterAll(async () => {
  await t?.close();
  tmp?.cleanup();
});

const file = (name: string): ParsedCsv => readCsv(join(report.directory, name));
const code = (reason: string) => MISSING_REASONS.find((m) => m.reason === reason)!.code;

describe('the schedule', () => {
  it('is kept in target-day order, numbered from 1', async () => {
    const d = await t.must('visits.design', { studyId });
    expect(d.visits.map((v) => [v.position, v.name, v.targetDay])).toEqual([
      [1, 'Baseline', 0],
      [2, 'Week 1', 7],
      [3, 'Week 2', 14],
      [4, 'Week 3', 21],
    ]);
    expect(d).toMatchObject({ startDate: '2026-05-01', endDate: '2026-07-31', timeZone: 'UTC' });
  });

  it('refuses a withdrawal without its reason', async () => {
    const r = await t.call('visits.setStatus', {
      participantId: pid['P04']!,
      status: 'withdrawn',
      on: '2026-05-30',
    });
    expect(r.ok).toBe(false);
  });
});

describe('visits.csv', () => {
  const expected: Record<string, [string, number | null, string | null, string | null]> = {
    // participant/visit: [participant_status, recording, missing_reason, missing_detail]
    'P01/Baseline': ['active', 0, null, null],
    'P01/Week 1': ['active', 0, null, null],
    'P01/Week 2': ['active', 0, code('refused_locally'), 'speech_too_short'],
    'P01/Week 3': ['active', null, code('not_recorded'), null],
    'P02/Baseline': ['active', 0, null, null],
    'P02/Week 1': ['active', 0, code('refused_by_service'), 'TooLarge'],
    'P02/Week 2': ['active', null, code('not_yet_due'), 'window closes 2026-06-03'],
    'P02/Week 3': ['active', null, code('not_yet_due'), 'window closes 2026-06-10'],
    'P03/Baseline': ['withdrawn', 0, null, null],
    'P03/Week 1': ['withdrawn', null, code('not_recorded'), null],
    'P03/Week 2': ['withdrawn', null, code('withdrawn'), 'moved away'],
    'P03/Week 3': ['withdrawn', null, code('withdrawn'), 'moved away'],
    'P04/Baseline': ['enrolled', null, code('not_yet_due'), 'no baseline yet'],
    'P04/Week 1': ['enrolled', null, code('not_yet_due'), 'no baseline yet'],
    'P04/Week 2': ['enrolled', null, code('not_yet_due'), 'no baseline yet'],
    'P04/Week 3': ['enrolled', null, code('not_yet_due'), 'no baseline yet'],
    'P05/Baseline': ['active', 0, null, null],
    'P05/Week 1': ['active', 0, null, null],
    'P05/Week 2': ['active', 0, code('failed'), 'analysis error'],
    'P05/Week 3': ['active', 0, code('in_progress'), 'analysis not answered yet'],
  };
  const recordingFor: Record<string, string> = {
    'P01/Baseline': 'P01.bl',
    'P01/Week 1': 'P01.w1',
    'P01/Week 2': 'P01.w2',
    'P02/Baseline': 'P02.bl',
    'P02/Week 1': 'P02.w1',
    'P03/Baseline': 'P03.bl',
    'P05/Baseline': 'P05.bl',
    'P05/Week 1': 'P05.w1',
    'P05/Week 2': 'P05.w2',
    'P05/Week 3': 'P05.w3',
  };

  it('has every expected visit of every participant exactly once', () => {
    const rows = file('visits.csv').records;
    const keys = rows.map((r) => `${r['participant']}/${r['visit']}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(Object.keys(expected).sort());
  });

  it('gives each visit its recording, or its missing-data code and detail, row by row', () => {
    for (const r of file('visits.csv').records) {
      const key = `${r['participant']}/${r['visit']}`;
      const [status, recording, reason, detail] = expected[key]!;
      expect(r['participant_status'], key).toBe(status);
      expect(r['recording'], key).toBe(recording === null ? '' : String(rec[recordingFor[key]!]));
      expect(r['missing_reason'], key).toBe(reason ?? '');
      expect(r['missing_detail'], key).toBe(detail ?? '');
    }
  });

  it('names the file of each visit’s recording, refused ones too, without its folder', async () => {
    const sourceOf = async (id: number) =>
      ((await t.store.get(`SELECT source_path AS p FROM recordings WHERE id = ?`, [id])) as { p: string }).p;
    for (const r of file('visits.csv').records) {
      const key = `${r['participant']}/${r['visit']}`;
      const id = recordingFor[key] === undefined ? undefined : rec[recordingFor[key]!];
      expect(r['file_name'], key).toBe(id === undefined ? '' : (await sourceOf(id)).split('/').pop());
      expect(r['file_name'], key).not.toContain('/');
    }
    const refused = file('visits.csv').records.find(
      (r) => r['participant'] === 'P01' && r['visit'] === 'Week 2',
    )!;
    expect(refused['missing_reason']).toBe(code('refused_locally'));
    expect(refused['file_name']).toMatch(/^rec-\d+\.wav$/);
  });

  it('gives the windows from each participant’s baseline', () => {
    const p01 = file('visits.csv').records.find(
      (r) => r['participant'] === 'P01' && r['visit'] === 'Week 2',
    )!;
    expect(p01).toMatchObject({
      baseline_date: '2026-05-04',
      baseline_source: 'first_usable',
      window_from: '2026-05-16',
      window_to: '2026-05-20',
      visit_index: '3',
      target_day: '14',
    });
  });
});

describe('completeness.csv', () => {
  it('counts each visit: expected = present + every reason', () => {
    const rows = file('completeness.csv').records;
    expect(rows.map((r) => r['visit'])).toEqual(['Baseline', 'Week 1', 'Week 2', 'Week 3']);
    const week2 = rows[2]!;
    expect(week2).toMatchObject({
      expected: '5',
      present: '0',
      missing_rl: '1',
      missing_nd: '2',
      missing_wd: '1',
      missing_fa: '1',
    });
    for (const r of rows) {
      const reasons = MISSING_REASONS.reduce((n, m) => n + Number(r[`missing_${m.code.toLowerCase()}`]), 0);
      expect(Number(r['present']) + reasons).toBe(Number(r['expected']));
    }
  });

  it('is the same table the window shows', async () => {
    const c = await t.must('visits.completeness', { studyId });
    expect(c.lines.map((l) => [l.visit, l.expected, l.present])).toEqual(
      file('completeness.csv').records.map((r) => [r['visit'], Number(r['expected']), Number(r['present'])]),
    );
  });
});

describe('the per-recording files', () => {
  it('carry visit, visit_index, days_since_baseline and where the visit came from', () => {
    for (const name of ['recordings.csv', 'measures_wide.csv', 'measures_long.csv']) {
      const rows = file(name).records;
      const of = (id: number) => rows.find((r) => r['recording'] === String(id))!;
      expect(of(rec['P01.w1']!), name).toMatchObject({
        visit: 'Week 1',
        visit_index: '2',
        days_since_baseline: '8',
        visit_source: 'session',
      });
      expect(of(rec['P05.w1']!), name).toMatchObject({
        visit: 'Week 1',
        days_since_baseline: '4',
        visit_source: 'researcher',
      });
      expect(of(rec['P02.w1']!), name).toMatchObject({ visit: 'Week 1', visit_source: 'window' });
    }
  });

  it('flag a recording dated after the participant’s withdrawal, and only that one', () => {
    for (const name of ['recordings.csv', 'measures_wide.csv', 'measures_long.csv']) {
      const rows = file(name).records;
      const flagged = new Set(
        rows.filter((r) => r['after_withdrawal'] === 'true').map((r) => r['recording']),
      );
      expect([...flagged], name).toEqual([String(rec['P03.late'])]);
      expect(rows.find((r) => r['recording'] === String(rec['P03.bl']))!['after_withdrawal'], name).toBe(
        'false',
      );
    }
    const codebook = readFileSync(join(report.directory, 'codebook.md'), 'utf8');
    expect(codebook).toContain('after_withdrawal');
    expect(codebook).toContain('dated after the day the participant withdrew');
  });

  it('show the same flag on the participant’s visits in the window', async () => {
    const v = await t.must('visits.participant', { participantId: pid['P03']! });
    expect(v.recordings.map((r) => [r.recordingId, r.afterWithdrawal])).toEqual([
      [rec['P03.bl'], false],
      [rec['P03.late'], true],
    ]);
  });

  it('lists the missing-data codes in the codebook', () => {
    const codebook = readFileSync(join(report.directory, 'codebook.md'), 'utf8');
    expect(codebook).toContain('## Missing-data codes');
    for (const m of MISSING_REASONS)
      expect(codebook).toContain(`| \`${m.code}\` | ${m.reason} | ${m.spss} | ${m.stata} |`);
  });
});
