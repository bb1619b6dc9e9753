/**
 * `voicescope reliability`: a study's k and reliabilities set and shown from the command line, and a
 * participant's change statistics as the timeline gives them, "no baseline yet" included.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/voicescope';
import { openStudyService } from '../../../main/services/study-service';
import { AWKWARD_CODES, seedAwkwardStudy } from '../export/awkward-study';
import { voicescopeNodeArgs } from '../../support/cli-bundle';

const root = mkdtempSync(join(tmpdir(), 'vs-cli-reliability-'));
const home = join(root, 'home');

const run = (args: string[]): Promise<{ code: number; lines: Record<string, unknown>[]; stderr: string }> =>
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
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        stderr: err,
      }),
    );
  });

beforeAll(async () => {
  const svc = openStudyService({ workspaceDir: home });
  await seedAwkwardStudy(svc.store);
  await svc.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const reliabilityOf = (lines: Record<string, unknown>[], key: string) =>
  lines.find((l) => l['kind'] === 'reliability' && (l['reliability'] as { key: string }).key === key)?.[
    'reliability'
  ];

describe('voicescope reliability', () => {
  it('lists k and every numeric measure with its reliability and source, sets, resets and refuses', async () => {
    const list = await run(['reliability', 'list', '--study', '1']);
    expect(list.code).toBe(EXIT.ok);
    expect(list.lines[0]).toMatchObject({ kind: 'settings', settings: { baselineSessions: 3 } });
    expect(reliabilityOf(list.lines, 'pd_hnr')).toMatchObject({ r: 0.4, source: 'default' });
    expect(reliabilityOf(list.lines, 'pd_risk_score')).toMatchObject({ r: null });

    const set = await run(['reliability', 'set', '--study', '1', 'pd_risk_score', '0.8', '--note', 'pilot']);
    expect(set.code).toBe(EXIT.ok);
    expect(reliabilityOf(set.lines, 'pd_risk_score')).toMatchObject({
      r: 0.8,
      source: 'study',
      note: 'pilot',
    });
    const reset = await run(['reliability', 'reset', '--study', '1', 'pd_risk_score']);
    expect(reliabilityOf(reset.lines, 'pd_risk_score')).toMatchObject({ r: null });

    expect((await run(['reliability', 'set', '--study', '1', 'pd_hnr', '1'])).code).toBe(EXIT.refused);
    expect((await run(['reliability', 'set', '--study', '1', 'wb_stress', '0.5'])).code).toBe(EXIT.refused);
    expect((await run(['reliability', 'set', '--study', '1', 'pd_hnr', 'high'])).code).toBe(EXIT.usage);
  }, 300_000);

  it('prints a participant\'s change statistics, and "no baseline yet" when k sessions are not there', async () => {
    const code = AWKWARD_CODES[0]!;
    const three = await run(['reliability', 'change', '--study', '1', '--participant', code]);
    expect(three.code).toBe(EXIT.ok);
    const changes = three.lines.filter((l) => l['kind'] === 'change');
    expect(changes.length).toBeGreaterThan(0);
    await run(['reliability', 'baseline', '--study', '1', '20']);
    const twenty = await run(['reliability', 'change', '--study', '1', '--participant', code]);
    const lines = twenty.lines.filter((l) => l['kind'] === 'change');
    expect(lines.length).toBe(changes.length);
    for (const l of lines) {
      expect(l['baseline']).toBeNull();
      expect(l['message']).toMatch(/no baseline yet \(\d+ of 20 sessions\)/);
      expect(l['change']).toMatchObject({ verdict: 'no_baseline_yet', change: null, changeInSd: null });
    }
    await run(['reliability', 'baseline', '--study', '1', 'default']);
    const back = await run(['reliability', 'list', '--study', '1']);
    expect(back.lines[0]).toMatchObject({ settings: { baselineSessions: 3 } });
  }, 300_000);
});
