/**
 * A journey leaves `npm test` for `npm run test:slow` only with its reason written down: every slow
 * window journey is named in docs/testing.md, and `npm test`'s Playwright configuration leaves exactly
 * those out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import base from '../../../playwright.config';
import slow from '../../../playwright.slow.config';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const e2eFiles = readdirSync(join(ROOT, 'test', 'e2e')).filter((f) => f.endsWith('.e2e.ts'));
const slowJourneys = e2eFiles.filter((f) => f.endsWith('.slow.e2e.ts'));

describe('the long window journeys', () => {
  it('are each named, with why, in docs/testing.md', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8');
    expect(slowJourneys.length).toBeGreaterThan(0);
    for (const f of slowJourneys) expect(doc, `docs/testing.md names ${f}`).toContain(`\`${f}\``);
  });

  it('run in test:slow and nowhere else; every other journey runs in npm test', () => {
    expect(base.testIgnore).toBe('**/*.slow.e2e.ts');
    expect(slow.testMatch).toBe('**/*.slow.e2e.ts');
    expect(e2eFiles.filter((f) => !f.endsWith('.slow.e2e.ts')).length).toBeGreaterThan(0);
  });
});
