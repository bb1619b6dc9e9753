/**
 * `voicescope audit verify`: exit 0 when the audit log's hash chain holds, exit 9 naming the first
 * broken entry when someone altered the log behind the app's back (docs/cli.md, docs/security.md).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { appendAuditAlone } from '../../../main/db/repos/audit.repo';
import type { Store } from '../../../main/db/store/types';
import { EXIT } from '../../../main/cli/voicescope';
import { cliWorkspace } from '../../support/cli-workspace';

const ws = cliWorkspace('vs-cli-audit-');
const { run } = ws;
afterAll(() => ws.remove());

/** Removes the engine's guard against changing an entry, as someone with the database in hand could. */
const dropUpdateGuard = (store: Store) =>
  store.run(
    store.dialect.name === 'sqlite'
      ? 'DROP TRIGGER audit_log_no_update'
      : 'DROP TRIGGER audit_log_no_change ON audit_log',
  );

const entry = (i: number) => ({
  at: `2026-01-0${i}T09:00:00.000Z`,
  kind: 'export_written' as const,
  studyId: 1,
  detail: { rows: i },
});

describe('voicescope audit verify', () => {
  it('an empty log holds (exit 0)', async () => {
    const r = await run(['audit', 'verify', '--json']);
    expect(r.code).toBe(EXIT.ok);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'audit', holds: true, entries: 0 });
  });

  it('a log the app wrote holds (exit 0) and says how many entries it checked', async () => {
    await ws.readStore(async (store) => {
      for (const i of [1, 2, 3]) await appendAuditAlone(store, entry(i));
    });
    const r = await run(['audit', 'verify']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/intact: all 3 entries/);
  });

  it('an entry altered behind the triggers: exit 9, naming the first broken entry', async () => {
    await ws.readStore(async (store) => {
      await dropUpdateGuard(store);
      await store.run(`UPDATE audit_log SET detail = '{"rows":99}' WHERE id = 2`);
    });
    const human = await run(['audit', 'verify']);
    expect(human.code).toBe(EXIT.auditBroken);
    expect(human.code).toBe(EXIT.auditBroken);
    expect(human.stderr).toMatch(/entry 2 \(export_written, 2026-01-02T09:00:00.000Z\) was changed/);
    const json = await run(['audit', 'verify', '--json']);
    expect(json.code).toBe(EXIT.auditBroken);
    expect(JSON.parse(json.stdout)).toMatchObject({
      kind: 'problem',
      holds: false,
      firstBroken: { id: 2, kind: 'export_written' },
      reason: 'changed',
    });
  });

  it('anything but "verify" is wrong usage (exit 2)', async () => {
    expect((await run(['audit', 'rewrite'])).code).toBe(EXIT.usage);
  });
});
