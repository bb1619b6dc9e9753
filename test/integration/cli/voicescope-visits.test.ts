/**
 * `voicescope visits …` and `voicescope participant …`: a study's schedule, a withdrawal with its reason,
 * a visit override, and every expected visit with its recording or missing-data code, as JSON lines.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/voicescope';
import { openStudyService } from '../../../main/services/study-service';
import { seedParticipant, seedRecording, seedStudy, storeValues } from '../rpc/seed';
import { voicescopeNodeArgs } from '../../support/cli-bundle';

const root = mkdtempSync(join(tmpdir(), 'vs-cli-visits-'));
const home = join(root, 'home');
let late = 0;

const run = (args: string[]): Promise<{ code: number; lines: Record<string, any>[]; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...voicescopeNodeArgs(), '--home', home, '--json', ...args]);
    let out = '',
      err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) =>
      resolve({
        code: code ?? -1,
        lines: out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, any>),
        stderr: err,
      }),
    );
  });

beforeAll(async () => {
  const svc = openStudyService({ workspaceDir: home });
  const s = await seedStudy(svc.store, 'Weekly');
  const p1 = await seedParticipant(svc.store, s, 'P01');
  await seedParticipant(svc.store, s, 'P02');
  const day0 = await seedRecording(svc.store, s, p1, {
    recordedAt: '2026-01-05T10:00:00.000Z',
    analyses: { wellbeing: 'completed' },
  });
  await storeValues(svc.store, day0, 'wellbeing', { wb_stress: 'low' });
  late = await seedRecording(svc.store, s, p1, {
    recordedAt: '2026-01-16T10:00:00.000Z',
    analyses: { wellbeing: 'completed' },
  });
  await storeValues(svc.store, late, 'wellbeing', { wb_stress: 'low' });
  await svc.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('voicescope visits and participant', () => {
  it('sets and shows the schedule in target-day order', async () => {
    const set = await run([
      'visits',
      'set',
      '--study',
      'Weekly',
      '--visit',
      'Week 1:7:2',
      '--visit',
      'Baseline:0:0:2',
    ]);
    expect(set.code).toBe(EXIT.ok);
    const show = await run(['visits', 'show', '--study', 'Weekly']);
    expect(
      show.lines
        .filter((l) => l.kind === 'visit')
        .map((l) => [l.visit.name, l.visit.windowBefore, l.visit.windowAfter]),
    ).toEqual([
      ['Baseline', 0, 2],
      ['Week 1', 2, 2],
    ]);
    expect((await run(['visits', 'set', '--study', 'Weekly', '--visit', 'Week 1'])).code).toBe(EXIT.usage);
  }, 240_000);

  it('refuses a withdrawal without its reason, then records it with its date', async () => {
    const no = await run([
      'participant',
      'status',
      '--study',
      'Weekly',
      '--participant',
      'P02',
      '--set',
      'withdrawn',
      '--on',
      '2026-01-02',
    ]);
    expect(no.code).toBe(EXIT.refused);
    const yes = await run([
      'participant',
      'status',
      '--study',
      'Weekly',
      '--participant',
      'P02',
      '--set',
      'withdrawn',
      '--on',
      '2026-01-02',
      '--reason',
      'moved away',
    ]);
    expect(yes.code).toBe(EXIT.ok);
    const shown = await run(['participant', 'status', '--study', 'Weekly', '--participant', 'P02']);
    expect(shown.lines[0]).toMatchObject({
      participant: { status: 'withdrawn', statusOn: '2026-01-02', statusReason: 'moved away' },
    });
    expect(shown.lines.filter((l) => l.kind === 'history')).toHaveLength(1);
  }, 240_000);

  it('overrides a recording’s visit and lists every expected visit with its recording or code', async () => {
    const before = await run(['visits', 'list', '--study', 'Weekly', '--participant', 'P01']);
    expect(before.lines.find((l) => l.recording?.recordingId === late)?.recording).toMatchObject({
      visit: null,
      source: 'none',
      daysSinceBaseline: 11,
    });
    const a = await run([
      'visits',
      'assign',
      '--study',
      'Weekly',
      '--recording',
      String(late),
      '--visit',
      'week 1',
    ]);
    expect(a.code).toBe(EXIT.ok);
    expect(a.lines[0]).toMatchObject({ recording: { visit: 'Week 1', source: 'researcher' } });
    const missing = await run(['visits', 'missing', '--study', 'Weekly']);
    expect(
      missing.lines.map((l) => [
        l.participant,
        l.visit,
        l.recording === null ? null : 'rec',
        l.missingReason,
      ]),
    ).toEqual([
      ['P01', 'Baseline', 'rec', null],
      ['P01', 'Week 1', 'rec', null],
      ['P02', 'Baseline', null, 'WD'],
      ['P02', 'Week 1', null, 'WD'],
    ]);
    const table = await run(['visits', 'completeness', '--study', 'Weekly']);
    expect(
      table.lines
        .filter((l) => l.line)
        .map((l) => [l.line.visit, l.line.expected, l.line.present, l.line.missing.withdrawn]),
    ).toEqual([
      ['Baseline', 2, 1, 1],
      ['Week 1', 2, 1, 1],
    ]);
  }, 240_000);
});
