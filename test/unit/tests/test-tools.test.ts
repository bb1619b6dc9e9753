/**
 * The tools the tests need are listed once (scripts/test-tools.mjs): `npm test` and CI install from that
 * list, and a test that checks the product against one of them fails in CI when it is missing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCommand, TEST_TOOLS } from '../../../scripts/test-tools.mjs';
import { inCi, toolFate, type ReferenceTool } from '../../support/reference-tools';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('a test that needs a reference tool', () => {
  it('runs where the tool is installed, in CI or not', () => {
    expect(toolFate(true, true)).toBe('run');
    expect(toolFate(true, false)).toBe('run');
  });

  it('fails in CI where the tool is missing, and is skipped only outside CI', () => {
    expect(toolFate(false, true)).toBe('fail');
    expect(toolFate(false, false)).toBe('skip');
  });

  it('knows CI by the CI variable, as .ci/run sets it', () => {
    expect(inCi({ CI: 'true' })).toBe(true);
    expect(inCi({ CI: '1' })).toBe(true);
    expect(inCi({})).toBe(false);
    expect(inCi({ CI: 'false' })).toBe(false);
    expect(inCi({ CI: '0' })).toBe(false);
  });
});

describe('the one list of test tools', () => {
  it('names every reference tool a test can ask for, each with its Debian package', () => {
    const asked: readonly ReferenceTool[] = [
      'python3',
      'R',
      'pandas',
      'praat',
      'ffmpeg',
      'pspp',
      'openpyxl',
      'postgresql-15',
    ];
    for (const name of asked)
      expect(TEST_TOOLS.find((t) => t.name === name)?.package).toMatch(/^[a-z0-9.+-]+$/);
    expect(TEST_TOOLS.find((t) => t.name === 'chromium')?.package).toBe('chromium');
  });

  it('installs what is missing with one apt-get command', () => {
    const tools = TEST_TOOLS.filter((t) => t.name === 'R' || t.name === 'pandas');
    expect(installCommand(tools)).toBe(
      'sudo apt-get update && sudo apt-get install -y --no-install-recommends r-base-core python3-pandas',
    );
  });

  it('is what npm test and CI both set up from, and CI keeps no list of its own', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { test: string } };
    expect(pkg.scripts.test.startsWith('node scripts/test-setup.mjs && ')).toBe(true);
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toContain('node scripts/test-setup.mjs');
    expect(ci).not.toMatch(/apt-get install/);
  });
});
