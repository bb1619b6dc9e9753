/**
 * `voicescope curate dismiss`: a needs-you item set aside with a reason from the command line, as a
 * process over a real workspace; `voicescope status` lists it as dismissed with who, when and why; undo
 * brings it back (docs/cli.md, "Curation").
 */
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage } from '../../../main/db/repos/audit.repo';
import { EXIT } from '../../../main/cli/voicescope';
import { daysAgo, seedParticipant, seedRecording, seedStudy } from '../rpc/seed';
import { cliWorkspace } from '../../support/cli-workspace';

const ws = cliWorkspace('vs-cli-dismiss-');
const { run, readStore } = ws;
afterAll(() => ws.remove());

let refused = 0;
beforeAll(async () => {
  expect((await run(['study', 'list'])).code).toBe(EXIT.ok); // creates the workspace
  await readStore(async (q) => {
    const s = await seedStudy(q, 'Voice');
    const a = await seedParticipant(q, s, 'P-001', { accountId: 'acct-a' });
    refused = await seedRecording(q, s, a, { recordedAt: daysAgo(3), uploadState: 'refused_locally' });
  });
}, 120_000);

describe('voicescope curate dismiss', { timeout: 240_000 }, () => {
  it('dismisses with a reason; status lists it as dismissed with who, when and why; undo brings it back', async () => {
    const r = await run(['curate', 'dismiss', '--recording', String(refused), '--reason', 'test file']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(
      new RegExp(
        `The needs-you item of recording ${refused} dismissed \\(act 1; undo: voicescope curate undo --act 1\\)`,
      ),
    );
    expect((await readStore((q) => auditPage(q, 0, 1))).rows[0]).toMatchObject({
      kind: 'needs_you_dismissed',
      detail: { act: 1, recording: refused },
    });
    const s = await run(['status', '--study', 'Voice']);
    expect(s.stdout).toMatch(
      new RegExp(
        `Dismissed: recording ${refused} \\(rec-\\d+\\.wav, P-001, refused locally\\) by ${userInfo().username} at .*: test file \\(undo: voicescope curate undo --act 1\\)`,
      ),
    );
    expect((await run(['curate', 'undo', '--act', '1'])).code).toBe(EXIT.ok);
    expect(
      await readStore((q) => q.get<{ n: number }>(`SELECT count(*) AS n FROM needs_you_dismissals`)),
    ).toEqual({
      n: 0,
    });
  });
});
