/**
 * `voicescope curate`: reassign, exclude, restore, delete a never-sent recording, undo and history from
 * the command line, as a process over a real workspace; each act an audit entry (docs/cli.md, "Curation").
 */
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import { EXIT } from '../../../main/cli/voicescope';
import { daysAgo, seedParticipant, seedRecording, seedStudy } from '../rpc/seed';
import { cliWorkspace } from '../../support/cli-workspace';

const ws = cliWorkspace('vs-cli-curate-');
const { run, readStore } = ws;
afterAll(() => ws.remove());

const json = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

let uploaded = 0;
let refused = 0;
let sent = 0;
beforeAll(async () => {
  expect((await run(['study', 'list'])).code).toBe(EXIT.ok); // creates the workspace
  await readStore(async (q) => {
    const s = await seedStudy(q, 'Voice');
    const a = await seedParticipant(q, s, 'P-001', { accountId: 'acct-a' });
    await seedParticipant(q, s, 'P-002', { accountId: 'acct-b' });
    uploaded = await seedRecording(q, s, a, { recordedAt: daysAgo(3), session: 'W1' });
    refused = await seedRecording(q, s, a, { recordedAt: daysAgo(2), uploadState: 'refused_locally' });
    sent = await seedRecording(q, s, a, { recordedAt: daysAgo(1), uploadState: 'queued' });
  });
}, 120_000);

// Each act is a process of its own (a few seconds each on a loaded machine).
describe('voicescope curate', { timeout: 240_000 }, () => {
  it('reassigns an uploaded recording and says what the service did; history and the audit log show it', async () => {
    const r = await run([
      'curate',
      'reassign',
      '--recording',
      String(uploaded),
      '--participant',
      'P-002',
      '--session',
      'W2',
      '--reason',
      'wrong code',
    ]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/Recording \d+ reassigned \(act 1; undo: voicescope curate undo --act 1\)/);
    expect(r.stdout).toMatch(/Note: The service analysed this recording under participant P-001's account/);
    const h = await run(['curate', 'history', '--recording', String(uploaded), '--json']);
    expect(json(h.stdout)).toEqual([
      expect.objectContaining({
        kind: 'act',
        id: 1,
        act: 'reassign',
        who: userInfo().username,
        reason: 'wrong code',
        before: expect.objectContaining({ participant: 'P-001', session: 'W1' }),
        after: expect.objectContaining({ participant: 'P-002', session: 'W2' }),
      }),
    ]);
    expect((await readStore((q) => auditPage(q, 0, 1))).rows[0]).toMatchObject({
      kind: 'recording_reassigned',
      detail: { act: 1, recording: uploaded, after_upload: true },
    });
  });

  it('excludes with a reason (required), restores, and undoes', async () => {
    expect((await run(['curate', 'exclude', '--recording', String(uploaded)])).code).toBe(EXIT.usage);
    const ex = await run([
      'curate',
      'exclude',
      '--recording',
      String(uploaded),
      '--reason',
      'test file',
      '--json',
    ]);
    expect(ex.code).toBe(EXIT.ok);
    const act = json(ex.stdout)[0]!['act'] as number;
    expect(
      await readStore((q) => q.get(`SELECT excluded_reason FROM recordings WHERE id = ?`, [uploaded])),
    ).toEqual({
      excluded_reason: 'test file',
    });
    expect((await run(['curate', 'undo', '--act', String(act)])).code).toBe(EXIT.ok);
    expect(
      await readStore((q) => q.get(`SELECT excluded_at FROM recordings WHERE id = ?`, [uploaded])),
    ).toEqual({
      excluded_at: null,
    });
    const again = await run(['curate', 'restore', '--recording', String(uploaded)]);
    expect(again.code).toBe(EXIT.refused);
    expect(again.stderr).toMatch(/not excluded/);
  });

  it('deletes a never-sent recording, refuses a queued one (exit 3), and the study history lists every act', async () => {
    expect(
      (await run(['curate', 'delete', '--recording', String(refused), '--reason', 'duplicate take'])).code,
    ).toBe(EXIT.ok);
    expect(await readStore((q) => q.get(`SELECT 1 FROM recordings WHERE id = ?`, [refused]))).toBeUndefined();
    const no = await run(['curate', 'delete', '--recording', String(sent)]);
    expect(no.code).toBe(EXIT.refused);
    expect(no.stderr).toMatch(/Only a recording that was never sent can be deleted/);
    const h = await run(['curate', 'history', '--study', 'Voice']);
    expect(h.code).toBe(EXIT.ok);
    expect(
      h.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('  ')[3]),
    ).toEqual(['delete unsent', 'undo of act 2', 'exclude', 'reassign']);
    expect(await readStore((q) => verifyAuditChain(q))).toEqual({ ok: true, entries: 4 });
  });

  it('refuses an unknown participant and an unknown subcommand', async () => {
    const r = await run(['curate', 'reassign', '--recording', String(uploaded), '--participant', 'P-404']);
    expect(r.code).toBe(EXIT.refused);
    expect(r.stderr).toMatch(/no participant P-404/);
    expect((await run(['curate', 'frobnicate'])).code).toBe(EXIT.usage);
  });
});
