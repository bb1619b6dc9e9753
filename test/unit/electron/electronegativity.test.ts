/**
 * Doyensec's Electronegativity over the built app (scripts/build.mjs --electron into a fresh folder),
 * run offline (test/support/electronegativity-offline.cjs). Every finding must be listed with what was
 * done about it in docs/security.md, and every listed finding must still occur: the test fails on an
 * unexplained finding and on a stale explanation.
 *
 * Two preparations of the scanned copy, neither changing what the code does: the bundles are named .js
 * (the tool reads only .js/.ts/.html, not .cjs), and their syntax is lowered to ES2020 by esbuild (the
 * tool's parser fails on private class fields and would then skip the renderer bundle silently).
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

interface Finding {
  id: string;
  file: string;
  line: number;
  severity: string;
  confidence: string;
  manualReview: boolean;
  sample: string;
  description: string;
}
interface Report {
  checks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  findings: Finding[];
}

let base: string;
let report: Report;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'vs-eng-'));
  const built = join(base, 'out');
  const scan = join(base, 'scan');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--electron', '--out', built], {
    stdio: 'pipe',
  });
  for (const dir of ['main', 'preload', 'renderer']) {
    mkdirSync(join(scan, dir), { recursive: true });
    for (const f of readdirSync(join(built, dir))) {
      if (/\.c?js$/.test(f)) {
        const lowered = await transform(readFileSync(join(built, dir, f), 'utf8'), {
          loader: 'js',
          target: 'es2020',
          ...(f.endsWith('.cjs') ? { format: 'cjs' as const } : {}),
        });
        writeFileSync(join(scan, dir, f.replace(/\.cjs$/, '.js')), lowered.code);
      } else {
        copyFileSync(join(built, dir, f), join(scan, dir, f));
      }
    }
  }
  copyFileSync(join(ROOT, 'package.json'), join(scan, 'package.json'));
  const stdout = execFileSync(
    process.execPath,
    [join(ROOT, 'test', 'support', 'electronegativity-offline.cjs'), scan, ELECTRON_VERSION],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 32 * 1024 * 1024 },
  );
  report = JSON.parse(stdout) as Report;
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The table between the markers in docs/security.md: check id, file, and what was done. */
const documented = () => {
  const doc = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');
  const start = doc.indexOf('<!-- electronegativity-findings:start -->');
  const end = doc.indexOf('<!-- electronegativity-findings:end -->');
  expect(start, 'docs/security.md has the findings table markers').toBeGreaterThan(-1);
  return doc
    .slice(start, end)
    .split('\n')
    .filter((l) => /^\|\s*`?[A-Z_]+`?\s*\|/.test(l))
    .map((l) => {
      const cells = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim().replace(/^`|`$/g, ''));
      return { id: cells[0]!, file: cells[1]!, what: cells.at(-1)! };
    });
};

describe('Electronegativity', () => {
  it('ran its checks over every bundle without a parse failure', () => {
    expect(report.checks).toBeGreaterThan(30);
    expect(report.errors.filter((e) => !e.tolerable)).toEqual([]);
  });

  it('finds nothing that docs/security.md does not list and explain', () => {
    const rows = documented();
    const unexplained = report.findings.filter((f) => !rows.some((r) => r.id === f.id && r.file === f.file));
    expect(
      unexplained.map(
        (f) =>
          `${f.id} in ${f.file}:${f.line} (${f.severity}/${f.confidence}): ${f.description} — ${f.sample}`,
      ),
    ).toEqual([]);
  });

  it('every finding listed in docs/security.md still occurs, with what was done about it', () => {
    const rows = documented();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(
        report.findings.some((f) => f.id === r.id && f.file === r.file),
        `${r.id} in ${r.file} is listed but no longer found: remove it from the table`,
      ).toBe(true);
      expect(r.what.length, `${r.id}: say what was done`).toBeGreaterThan(40);
    }
  });

  it('finds the navigation, permission and CSP rules in the built code (their global checks stay quiet)', () => {
    const ids = report.findings.map((f) => f.id);
    for (const quiet of [
      'LIMIT_NAVIGATION_GLOBAL_CHECK',
      'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
      'CONTEXT_ISOLATION_JS_CHECK',
      'NODE_INTEGRATION_JS_CHECK',
      'SANDBOX_JS_CHECK',
    ]) {
      expect(ids, quiet).not.toContain(quiet);
    }
  });
});
