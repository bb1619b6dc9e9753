/**
 * Issue 15, Tests: a simulated 12-week study of 40 participants run through the `voicescope` command line
 * against the sandbox, as a coordinator would run it: the schedule and the study period, one import of
 * every week's files (dated by the manifest, so twelve weeks pass at once), the missed visits, three
 * withdrawals, files too short (refused locally), a borderline file sent anyway and refused by the
 * service, two exclusions and one undone, three reassignments, a participant entered twice and merged.
 *
 * The exports are then checked cell by cell against an expectation table built from the plan alone
 * (test/support/twelve-week-study.ts), not from the product's rules: every expected visit has exactly one
 * row, with the right recording and values or the right missing-data code and detail; the completeness
 * table counts those rows; every act is in the curation record and the audit log, whose chain holds; and
 * pandas recomputes every change statistic of participant_summary.csv from the exported long data
 * (test/reference/change_reference.py).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/command';
import { auditPage } from '../../../main/db/repos/audit.repo';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { MEASURES } from '../../../shared/api/measures';
import { reliabilityOf } from '../../../shared/reliability';
import { cliWorkspace, jsonLines } from '../../support/cli-workspace';
import { readCsv } from '../export/helpers';
import {
  expectedVisits,
  PARTICIPANTS,
  PERIOD,
  PLAN,
  VISIT_ARGS,
  visitName,
  withdrawalDate,
  writeStudyFolder,
  type StudyFile,
  type StudyState,
} from '../../support/twelve-week-study';
import { itWithTool } from '../../support/reference-tools';

const REFERENCE = join(import.meta.dirname, '../../reference/change_reference.py');
const PYTHON = '/usr/bin/python3';
const KEY = 'vs-twelve-weeks-key-0001';
const STUDY = 'Twelve weeks';

const ws = cliWorkspace('vs-12w-', { env: { VS_12W_KEY: KEY } });
const { root } = ws;
const folder = join(root, 'recordings');
let sandbox: Sandbox;
let files: StudyFile[] = [];
/** Recording id of each file (by file name), read after the import. */
const idOf = new Map<string, number>();
const acts: { act: number; kind: string; recording: number | null }[] = [];
const state: { -readonly [K in keyof StudyState]: StudyState[K] } = {
  reassigned: false,
  excluded: false,
  sentAnyway: false,
  withdrawn: false,
  merged: false,
};

type Run = { code: number; lines: Record<string, any>[]; stderr: string };
/** One command with `--json`, its lines parsed. */
const run = async (args: string[]): Promise<Run> => {
  const r = await ws.run(['--json', ...args]);
  return { code: r.code, lines: jsonLines(r.stdout), stderr: r.stderr };
};
const ok = async (args: string[], code: number = EXIT.ok): Promise<Run> => {
  const r = await run(args);
  expect(r.code, `${args.slice(0, 2).join(' ')}: ${r.stderr} ${JSON.stringify(r.lines.slice(-2))}`).toBe(
    code,
  );
  return r;
};
const curate = async (kind: string, file: string | null, args: string[]): Promise<number> => {
  const r = await ok(['curate', kind, ...args]);
  const act = r.lines.find((l) => l.kind === 'curated')!.act as number;
  acts.push({ act, kind, recording: file === null ? null : idOf.get(file)! });
  return act;
};
const rec = (code: string, week: number): string => `${code}_${visitName(week)}.wav`;
const recId = (file: string): string => String(idOf.get(file)!);

const exportTo = async (name: string): Promise<string> => {
  await ok(['export', '--study', STUDY, '--out', root, '--folder', name, '--tz', 'UTC']);
  return join(root, name);
};

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    config: {
      organisations: [
        {
          id: 'lab',
          name: 'Lab',
          apiKeys: [KEY],
          credits: {
            trial_remaining: 0,
            trial_granted: 0,
            included_remaining: 2_000,
            included_granted: 2_000,
            purchased_remaining: 0,
            tier: 'sandbox',
          },
        },
      ],
      scenario: { preset: 'fast' },
    },
  });
  files = writeStudyFolder(folder).files;
}, 300_000);
afterAll(async () => {
  await sandbox?.close();
  ws.remove();
});

/** visits.csv against the expectation table, cell by cell; returns the rows for further checks. */
const checkVisits = (dir: string, s: StudyState) => {
  const visits = readCsv(join(dir, 'visits.csv')).records;
  const recordings = readCsv(join(dir, 'recordings.csv')).records;
  const long = readCsv(join(dir, 'measures_long.csv')).records;
  // The file each recording was imported from (by id): refused files are not in recordings.csv (never
  // uploaded, no analysis: docs/export.md, "Selection"), yet visits.csv names them.
  const fileOfRecording = new Map([...idOf].map(([file, id]) => [String(id), file]));
  const exported = new Map(recordings.map((r) => [r['recording']!, r['file_name']!]));
  const withValues = new Set(long.filter((l) => l['value'] !== '').map((l) => l['recording']!));
  const expected = expectedVisits(s);
  // Exactly one row per expected visit, and no other row.
  const key = (p: string, v: string) => `${p} ${v}`;
  const counts = new Map<string, number>();
  for (const v of visits)
    counts.set(
      key(v['participant']!, v['visit']!),
      (counts.get(key(v['participant']!, v['visit']!)) ?? 0) + 1,
    );
  expect([...counts.keys()].sort()).toEqual(expected.map((e) => key(e.participant, e.visit)).sort());
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  const got = expected.map((e) => {
    const row = visits.find((v) => v['participant'] === e.participant && v['visit'] === e.visit)!;
    return {
      participant: row['participant'],
      visit: row['visit'],
      file:
        row['recording'] === '' ? null : (fileOfRecording.get(row['recording']!) ?? `? ${row['recording']}`),
      code: row['missing_reason'],
      detail: row['missing_detail'],
    };
  });
  expect(got).toEqual(expected);
  // A row without a code has values in the long form; a row with one names no usable recording.
  for (const v of visits)
    if (v['missing_reason'] === '') {
      expect(withValues.has(v['recording']!), `${v['participant']} ${v['visit']}`).toBe(true);
      expect(exported.get(v['recording']!)).toBe(fileOfRecording.get(v['recording']!));
    }
  // completeness.csv counts the rows of visits.csv.
  const completeness = readCsv(join(dir, 'completeness.csv')).records;
  for (let w = 1; w <= 12; w++) {
    const mine = expected.filter((e) => e.visit === visitName(w));
    const line = completeness.find((c) => c['visit'] === visitName(w))!;
    expect(Number(line['expected']), visitName(w)).toBe(mine.length);
    expect(Number(line['present']), visitName(w)).toBe(mine.filter((e) => e.code === '').length);
    for (const code of ['NR', 'WD', 'RL', 'RS', 'EX', 'HD'])
      expect(Number(line[`missing_${code.toLowerCase()}`]), `${visitName(w)} ${code}`).toBe(
        mine.filter((e) => e.code === code).length,
      );
  }
  return { visits, recordings, long, expected };
};

// Each step is one or more command-line processes (a few seconds each on the loaded machine).
describe('a 12-week study of 40 participants through the command line', { timeout: 600_000 }, () => {
  it('sets up the service, the study, its weekly schedule and its period', async () => {
    await ok(
      ['profile', 'add', '--name', 'sandbox', '--url', sandbox.url, '--api', 'v1.3'].concat([
        '--key-env',
        'VS_12W_KEY',
        '--sandbox',
      ]),
    );
    await ok(['study', 'create', '--name', STUDY, '--profile', 'sandbox']);
    await ok(
      [
        'settings',
        '--first-poll',
        '2',
        '--poll-interval',
        '3',
        '--poll-jitter',
        '0',
        '--budget',
        '50',
      ].concat(['--upload-concurrency', '4', '--uploads-per-minute', '600']),
    );
    await ok(['visits', 'set', '--study', STUDY, ...VISIT_ARGS.flatMap((v) => ['--visit', v])]);
    await ok(['visits', 'period', '--study', STUDY, '--from', PERIOD.from, '--to', PERIOD.to, '--tz', 'UTC']);
    const shown = await ok(['visits', 'show', '--study', STUDY]);
    expect(shown.lines.filter((l) => l.kind === 'visit').map((l) => l.visit.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => visitName(i + 1)),
    );
  });

  it('imports the twelve weeks and sends them; the short files are refused locally, the borderline one held', async () => {
    const r = await run(
      ['import', '--study', STUDY, folder, '--manifest', join(folder, 'manifest.csv')].concat([
        '--tz',
        'UTC',
        '--analyses',
        'wellbeing,parkinsons',
        '--yes',
        '--wait',
        '--timeout',
        '1500',
      ]),
    );
    // Refused files make the exit 3; nothing needs a decision that the plan did not put there.
    expect(r.code, `${r.stderr} ${JSON.stringify(r.lines.slice(-3))}`).toBe(EXIT.refused);
    const final = r.lines.filter((l) => l.kind === 'batch').at(-1)!.batch as {
      total: number;
      uploads: Record<string, number>;
    };
    const good = files.filter((f) => f.kind === 'good').length;
    expect(final.uploads).toEqual({ uploaded: good, refused_locally: files.length - good });
    expect(sandbox.listRecordings()).toHaveLength(good);
    ws.read((db) => {
      for (const row of db.prepare(`SELECT id, source_path FROM recordings`).all() as {
        id: number;
        source_path: string;
      }[])
        idOf.set(row.source_path.split('/').at(-1)!, row.id);
    });
    expect(idOf.size).toBe(files.length);
  }, 1_800_000); // 457 files checked, sent and analysed: about 14 minutes on the loaded 2-core machine

  it('before any curation, the export explains every visit the plan left empty', async () => {
    checkVisits(await exportTo('before'), state);
  });

  it('withdraws three participants with their dates and reasons', async () => {
    for (const w of PLAN.withdrawals)
      await ok(
        ['participant', 'status', '--study', STUDY, '--participant', w.code, '--set', 'withdrawn'].concat([
          '--on',
          withdrawalDate(w.code, w.lastWeek),
          '--reason',
          w.reason,
        ]),
      );
    state.withdrawn = true;
  });

  it('reassigns the three misfiled recordings (after upload: the service analysed them under the first account)', async () => {
    for (const m of PLAN.misfiled) {
      const file = rec(m.code, m.week);
      const to = 'participant' in m.fix ? ['--participant', m.fix.participant] : ['--session', m.fix.session];
      await curate('reassign', file, ['--recording', recId(file), ...to, '--reason', 'filed wrongly']);
    }
    state.reassigned = true;
  });

  it('excludes two recordings, and excludes a third then undoes it', async () => {
    for (const e of PLAN.excluded)
      await curate('exclude', rec(e.code, e.week), [
        '--recording',
        recId(rec(e.code, e.week)),
        '--reason',
        e.reason,
      ]);
    const [code, week] = PLAN.excludedThenUndone;
    const act = await curate('exclude', rec(code, week), [
      '--recording',
      recId(rec(code, week)),
      '--reason',
      'by mistake',
    ]);
    await curate('undo', rec(code, week), ['--act', String(act)]);
    state.excluded = true;
  });

  it('sends the borderline file anyway; the service refuses it', async () => {
    const [code, week] = PLAN.borderline;
    const file = rec(code, week);
    await curate('send-anyway', file, [
      '--recording',
      recId(file),
      '--reason',
      'estimate misses quiet speech',
    ]);
    const r = await run(['wait', '--study', STUDY, '--timeout', '120']);
    expect(r.code, r.stderr).toBe(EXIT.refused);
    state.sentAnyway = true;
  });

  it('merges the participant entered twice into the first', async () => {
    const d = PLAN.duplicate;
    await curate('merge', null, [
      '--study',
      STUDY,
      '--from',
      d.as,
      '--into',
      d.code,
      '--reason',
      'entered twice',
    ]);
    state.merged = true;
  });

  let final = '';
  it('exports: every expected visit has exactly one row, with values or the right code, cell by cell', async () => {
    // The weekly schedule alone would give a baseline of one session (the visit before Week 1); the study
    // sets three, so the change statistics compared with pandas below have a baseline SD.
    await ok(['reliability', 'baseline', '--study', STUDY, '3']);
    final = await exportTo('final');
    const { recordings, expected } = checkVisits(final, state);
    expect(expected).toHaveLength((PARTICIPANTS.length + (state.merged ? 0 : 1)) * 12);
    // The curated recordings carry their marks in recordings.csv.
    const byFile = new Map(recordings.map((r) => [r['file_name']!, r]));
    for (const e of PLAN.excluded)
      expect(byFile.get(rec(e.code, e.week))).toMatchObject({ excluded: 'true', excluded_reason: e.reason });
    expect(byFile.get(rec(...PLAN.excludedThenUndone))).toMatchObject({ excluded: 'false' });
    for (const m of PLAN.misfiled) {
      const r = byFile.get(rec(m.code, m.week))!;
      expect(r['participant']).toBe(m.code);
      expect(r['session']).toBe(visitName(m.week));
      if (m.filedAs.code !== m.code) expect(r['provenance']).toMatch(new RegExp(m.filedAs.code));
    }
    const counts = Object.fromEntries(
      ['', 'NR', 'WD', 'RL', 'RS', 'EX'].map((c) => [
        c || 'present',
        expected.filter((e) => e.code === c).length,
      ]),
    );
    console.log(`12-week study: ${expected.length} expected visits ${JSON.stringify(counts)}`);
  });

  it('has every act in the curation record and the audit log, and the chain holds', async () => {
    const h = await ok(['curate', 'history', '--study', STUDY]);
    // The withdrawals are acts too (a status change is an audited act with undo), one per withdrawal.
    const statusActs = h.lines.filter((l) => l.kind === 'act' && l.act === 'status');
    expect(statusActs).toHaveLength(PLAN.withdrawals.length);
    const listed = h.lines.filter((l) => l.kind === 'act' && l.act !== 'status');
    expect(listed.map((l) => l.id as number).sort((a, b) => a - b)).toEqual(
      acts.map((a) => a.act).sort((a, b) => a - b),
    );
    for (const a of acts.filter((x) => x.recording !== null))
      expect(listed.find((l) => l.id === a.act)).toMatchObject({ recordingId: a.recording });
    const entries = (await ws.readStore((q) => auditPage(q, 0, 1000))).rows as {
      kind: string;
      detail: Record<string, unknown> | null;
    }[];
    const KIND: Record<string, string> = {
      reassign: 'recording_reassigned',
      exclude: 'recording_excluded',
      undo: 'curation_undone',
      'send-anyway': 'recording_sent_anyway',
      merge: 'participants_merged',
    };
    for (const a of acts)
      expect(
        entries.some((e) => e.kind === KIND[a.kind] && e.detail?.['act'] === a.act),
        `act ${a.act} ${a.kind}`,
      ).toBe(true);
    expect(entries.filter((e) => e.kind === 'participant_status_changed')).toHaveLength(
      PLAN.withdrawals.length,
    );
    expect(entries.filter((e) => e.kind === 'visit_schedule_changed').length).toBeGreaterThanOrEqual(2);
    const v = await ok(['audit', 'verify']);
    expect(v.lines[0]).toMatchObject({ kind: 'audit', holds: true, entries: entries.length });
  });

  itWithTool('pandas', 'the change statistics equal a pandas computation from the exported long data', () => {
    const rel = Object.fromEntries(
      MEASURES.filter((m) => m.valueType !== 'category').flatMap((m) => {
        const r = reliabilityOf(m.key, new Map());
        return r ? [[m.key, r.r]] : [];
      }),
    );
    writeFileSync(join(final, 'reliability.json'), JSON.stringify(rel));
    expect(existsSync(REFERENCE)).toBe(true);
    const r = spawnSync(PYTHON, [REFERENCE, '3'], {
      cwd: final,
      encoding: 'utf8',
      env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as {
      compared: number;
      counts: Record<string, number>;
      bad: unknown[];
      missing: unknown[];
    };
    expect(out.bad).toEqual([]);
    expect(out.missing).toEqual([]);
    expect(out.compared).toBeGreaterThan(40 * 5);
    console.log(
      `12-week study, change reference: ${out.compared} series; verdicts ${JSON.stringify(out.counts)}`,
    );
  });
});
