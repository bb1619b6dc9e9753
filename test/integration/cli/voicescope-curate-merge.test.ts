/**
 * `voicescope curate merge`: a participant entered twice merged into the other from the command line, as
 * a process over a real workspace: --dry-run says what would happen and changes nothing, a session clash
 * is refused (exit 3), the merge warns about the first account's analyses, the history and the audit log
 * show it, and undo restores both (docs/cli.md, "Curation").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import { EXIT } from '../../../main/cli/voicescope';
import { daysAgo, seedParticipant, seedRecording, seedStudy } from '../rpc/seed';
import { cliWorkspace } from '../../support/cli-workspace';

const ws = cliWorkspace('vs-cli-merge-');
const { run, readStore } = ws;
afterAll(() => ws.remove());

const owners = () => readStore((q) => q.all(`SELECT id, participant_id AS p FROM recordings ORDER BY id`));

let into = 0;
let from = 0;
let clash = 0;
beforeAll(async () => {
  expect((await run(['study', 'list'])).code).toBe(EXIT.ok); // creates the workspace
  await readStore(async (q) => {
    const s = await seedStudy(q, 'Voice');
    into = await seedParticipant(q, s, 'P-007', { accountId: 'acct-7' });
    from = await seedParticipant(q, s, 'P-017', { accountId: 'acct-17' });
    await seedRecording(q, s, into, { recordedAt: daysAgo(20), session: 'W1' });
    await seedRecording(q, s, from, { recordedAt: daysAgo(13), session: 'W2' });
    clash = await seedRecording(q, s, from, {
      recordedAt: daysAgo(19),
      session: 'W1',
      uploadState: 'pending',
    });
  });
}, 120_000);

const merge = ['curate', 'merge', '--study', 'Voice', '--from', 'P-017', '--into', 'P-007'];

describe('voicescope curate merge', { timeout: 240_000 }, () => {
  it('refuses a session label both use (exit 3), with --dry-run too, and changes nothing', async () => {
    const before = await owners();
    const dry = await run([...merge, '--dry-run']);
    expect(dry.code).toBe(EXIT.refused);
    expect(dry.stdout).toMatch(/would move 2 recordings \(1 analysed under P-017's account\)/);
    expect(dry.stdout).toMatch(/cannot be done: Both participants have recordings in session W1/);
    const r = await run([...merge, '--reason', 'entered twice']);
    expect(r.code).toBe(EXIT.refused);
    expect(r.stderr).toMatch(/session W1/);
    expect(await owners()).toEqual(before);
    expect((await run([...merge])).code).toBe(EXIT.usage); // --reason is required
    const unknown = await run(['curate', 'merge', '--study', 'Voice', '--from', 'P-404', '--into', 'P-007']);
    expect(unknown.code).toBe(EXIT.refused);
    expect(unknown.stderr).toMatch(/no participant P-404/);
  });

  it('merges once the clash is relabelled, warns about the first account, and the history and audit log show it', async () => {
    expect(
      (await run(['curate', 'reassign', '--recording', String(clash), '--session', 'W1 (second entry)']))
        .code,
    ).toBe(EXIT.ok);
    const dry = await run([...merge, '--dry-run']);
    expect(dry.code).toBe(EXIT.ok);
    expect(dry.stdout).toMatch(/Nothing was changed/);
    const r = await run([...merge, '--reason', 'entered twice: P-017 is P-007']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(
      /Participant P-017 merged into P-007 \(act 2; undo: voicescope curate undo --act 2\)/,
    );
    expect(r.stdout).toMatch(
      /Note: The service analysed 1 of these recordings under participant P-017's account/,
    );
    expect(await owners()).toEqual([
      { id: 1, p: into },
      { id: 2, p: into },
      { id: 3, p: into },
    ]);
    const h = await run(['curate', 'history', '--study', 'Voice', '--participant', 'P-017']);
    expect(h.code).toBe(EXIT.ok);
    expect(h.stdout).toMatch(
      /act 2 .* merge {2}P-017 into P-007 \(2 recordings\) {2}"entered twice: P-017 is P-007"/,
    );
    expect((await readStore((q) => auditPage(q, 0, 1))).rows[0]).toMatchObject({
      kind: 'participants_merged',
      detail: { act: 2, participant_before: from, participant_after: into, after_upload: true },
    });
  });

  it('undo restores both participants', async () => {
    expect((await run(['curate', 'undo', '--act', '2', '--reason', 'not the same person'])).code).toBe(
      EXIT.ok,
    );
    expect(await owners()).toEqual([
      { id: 1, p: into },
      { id: 2, p: from },
      { id: 3, p: from },
    ]);
    expect(
      await readStore((q) => q.get(`SELECT merged_into FROM participants WHERE id = ?`, [from])),
    ).toEqual({
      merged_into: null,
    });
    expect(await readStore((q) => verifyAuditChain(q))).toEqual({ ok: true, entries: 3 });
  });
});
