/**
 * `voicescope export`, the headless path to the same exporter the app uses: a scheduled job exports a
 * selection, reads the result as a JSON line and relies on the exit code.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportReport } from '../../../shared/export';
import { EXIT } from '../../../main/cli/voicescope';
import { openStudyService } from '../../../main/services/study-service';
import { seedAwkwardStudy } from '../export/awkward-study';
import { readCsv, unneutralise } from '../export/helpers';
import { voicescopeNodeArgs } from '../../support/cli-bundle';

const root = mkdtempSync(join(tmpdir(), 'vs-cli-export-'));
const home = join(root, 'home');
const outDir = join(root, 'exports');

const run = (args: string[]): Promise<{ code: number; lines: Record<string, unknown>[]; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...voicescopeNodeArgs(), '--home', home, ...args]);
    let out = '',
      err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
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
  mkdirSync(outDir);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('voicescope export', () => {
  it('exports a selection by study name, with participant codes holding commas, and reports the files as JSON', async () => {
    const r = await run([
      'export',
      '--study',
      'Awkward, "study" ü',
      '--out',
      outDir,
      '--folder',
      'weekly',
      '--forms',
      'long,summary',
      '--participant',
      'P,01',
      '--participant',
      'NA',
      '--tz',
      'Europe/Berlin',
      '--baseline-sessions',
      '2',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.ok);
    const done = r.lines.find((l) => l['kind'] === 'exported') as { report: ExportReport; message: string };
    expect(done.report.directory).toBe(join(outDir, 'weekly'));
    expect(done.report.anySimulated).toBe(true);
    expect(done.message).toMatch(/simulated/);
    expect(readdirSync(join(outDir, 'weekly'))).toEqual(
      expect.arrayContaining([
        'measures_long.csv',
        'participant_summary.csv',
        'recordings.csv',
        'codebook.md',
        'datapackage.json',
      ]),
    );
    expect(readdirSync(join(outDir, 'weekly'))).not.toContain('measures_wide.csv');
    const long = readCsv(join(outDir, 'weekly', 'measures_long.csv'));
    expect(new Set(long.records.map((x) => unneutralise(x['participant']!)))).toEqual(
      new Set(['P,01', 'NA']),
    );
    // --baseline-sessions: the summary's baseline is the first 2 values of each participant, measure and API version.
    expect(done.report.request.baselineSessions).toBe(2);
    const summary = readCsv(join(outDir, 'weekly', 'participant_summary.csv'));
    expect(summary.records.some((x) => x['baseline_n'] === '2')).toBe(true);
    expect(summary.records.every((x) => Number(x['baseline_n']) === Math.min(2, Number(x['n'])))).toBe(true);
  }, 60_000);

  it('writes the files for SPSS, Stata and Excel asked for with --extras, and names them', async () => {
    const r = await run([
      'export',
      '--study',
      '1',
      '--out',
      outDir,
      '--folder',
      'stats',
      '--forms',
      'wide',
      '--extras',
      'stata,xlsx,spss',
      '--tz',
      'UTC',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.ok);
    const done = r.lines.find((l) => l['kind'] === 'exported') as { report: ExportReport; message: string };
    expect(done.report.request.extras).toEqual(['spss', 'stata', 'xlsx']);
    expect(readdirSync(join(outDir, 'stats'))).toEqual(
      expect.arrayContaining(['load.sps', 'load.do', 'study.xlsx', 'load.R', 'load.py']),
    );
    expect(done.message).toMatch(/load\.sps, load\.do, study\.xlsx/);
    const bad = await run(['export', '--study', '1', '--out', outDir, '--extras', 'sas', '--json']);
    expect(bad.code).toBe(EXIT.usage);
  }, 60_000);

  it('exits 7 with the reason when nothing matches, and writes nothing', async () => {
    const r = await run([
      'export',
      '--study',
      '1',
      '--out',
      outDir,
      '--folder',
      'none',
      '--from',
      '2030-01-01',
      '--json',
    ]);
    expect(r.code).toBe(EXIT.notExported);
    expect(r.lines.at(-1)).toMatchObject({ kind: 'problem', code: 'empty_selection' });
    expect(existsSync(join(outDir, 'none'))).toBe(false);
  }, 60_000);

  it('exits 2 for a wrong form or a missing --out', async () => {
    const bad = await run(['export', '--study', '1', '--out', outDir, '--forms', 'tall', '--json']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.lines.at(-1)).toMatchObject({ kind: 'problem', code: 'invalid_request' });
    const k = await run(['export', '--study', '1', '--out', outDir, '--baseline-sessions', '21', '--json']);
    expect(k.code).toBe(EXIT.usage);
    expect(k.lines.at(-1)).toMatchObject({ kind: 'problem', code: 'invalid_request' });
    expect(String(k.lines.at(-1)!['message'])).toMatch(/baselineSessions/);
    const word = await run(['export', '--study', '1', '--out', outDir, '--baseline-sessions', 'three']);
    expect(word.code).toBe(EXIT.usage);
    expect(word.stderr).toMatch(/--baseline-sessions takes a whole number/);
    const missing = await run(['export', '--study', '1']);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toMatch(/--out is required/);
  }, 60_000);
});
