/**
 * `voicescope attributes`: participants' researcher-defined attributes from the command line — a CSV
 * imported (codes not in the study named, exit 3), one participant's set and removed, and the list.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/voicescope';
import { seedCohortStudy } from '../../support/cohort-study';

const CLI = join(import.meta.dirname, '../../../main/cli/voicescope.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
const root = mkdtempSync(join(tmpdir(), 'vs-cli-attributes-'));
const home = join(root, 'home');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, '--home', home, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });

describe('voicescope attributes', () => {
  it('imports a CSV, sets and removes one participant’s, and lists them', async () => {
    const { studyId } = seedCohortStudy(home, {
      participants: 2,
      sessions: 1,
      longSessions: 0,
      now: Date.UTC(2026, 0, 1),
    });
    const csv = join(root, 'attributes.csv');
    writeFileSync(csv, 'participant_code,diagnosis\nP-001,PD\nP-009,PD\n');
    const imported = await run(['attributes', '--study', String(studyId), '--csv', csv, '--json']);
    expect(imported.code).toBe(EXIT.refused);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      report: { applied: 1, keys: ['diagnosis'], unknownCodes: ['P-009'] },
    });

    const set = await run([
      'attributes',
      '--study',
      String(studyId),
      '--participant',
      'P-002',
      'diagnosis=control',
      'arm=',
    ]);
    expect(set.code).toBe(EXIT.ok);
    expect(set.stdout).toContain('P-002: diagnosis=control, site=Berlin.');

    const list = await run(['attributes', '--study', String(studyId)]);
    expect(list.code).toBe(EXIT.ok);
    expect(list.stdout).toContain('P-001\tarm=placebo\tdiagnosis=PD\tsite=Berlin');
    expect(list.stdout).toContain('P-002\tarm=\tdiagnosis=control\tsite=Berlin');
  }, 180_000);
});
