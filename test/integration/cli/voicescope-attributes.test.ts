/**
 * `voicescope attributes`: participants' researcher-defined attributes from the command line — a CSV
 * imported (codes not in the study named, exit 3), one participant's set and removed, and the list.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/voicescope';
import { seedCohortStudy } from '../../support/cohort-study';
import { cliWorkspace } from '../../support/cli-workspace';

const ws = cliWorkspace('vs-cli-attributes-');
const { root, home, run } = ws;
afterAll(() => ws.remove());

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
