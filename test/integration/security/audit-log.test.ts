/**
 * An audit log that cannot be rewritten, on either engine: the database refuses a rewrite through SQL
 * (an old entry replaced, an entry out of the chain, an update, a deletion), and the hash chain names
 * the first broken entry when someone with the database in hand removed those guards first.
 */
import { describe, expect, it } from 'vitest';
import { appendAudit, appendAuditAlone, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import type { Store } from '../../../main/db/store/types';
import { workstationName } from '../../../main/workstation-name';
import { storePerTest, testEngine } from '../../support/test-engine';

const stores = storePerTest();

const entry = (i: number) => ({
  at: `2026-01-0${i}T00:00:00.000Z`,
  kind: 'export_written' as const,
  studyId: 1,
  detail: { rows: i },
});

/** A fresh store with entries 1..n appended, and their ids. */
const withEntries = async (n: number): Promise<{ store: Store; ids: number[] }> => {
  const store = await stores.open();
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) ids.push(await appendAuditAlone(store, entry(i)));
  return { store, ids };
};

/** The statements that remove the engine's guards against changing and deleting entries. */
const DROP_GUARDS =
  testEngine() === 'sqlite'
    ? ['DROP TRIGGER audit_log_no_update', 'DROP TRIGGER audit_log_no_delete']
    : ['DROP TRIGGER audit_log_no_change ON audit_log'];
const dropGuards = async (store: Store) => {
  for (const sql of DROP_GUARDS) await store.run(sql);
};

describe('an audit log that cannot be rewritten', () => {
  it('an old entry written again, an entry outside the chain, UPDATE and DELETE are refused; the chain verifies', async () => {
    const { store, ids } = await withEntries(3);
    const again = store.dialect.upsert(
      'audit_log',
      ['id', 'at', 'kind', 'detail'],
      ['id'],
      ['at', 'kind', 'detail'],
    );
    await expect(store.run(again, [ids[0]!, 'x', 'key_added', '{}'])).rejects.toThrow(/append-only/);
    await expect(
      store.run(`INSERT INTO audit_log (at, kind, detail) VALUES ('x', 'key_added', '{}')`),
    ).rejects.toThrow(/append-only/);
    await expect(store.run(`UPDATE audit_log SET detail = '{}'`)).rejects.toThrow(/append-only/);
    await expect(store.run(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    expect(await verifyAuditChain(store)).toEqual({ ok: true, entries: 3 });
  });

  // SQLite's own way of replacing a row (a DELETE and an INSERT); PostgreSQL has no such statement.
  it.skipIf(testEngine() !== 'sqlite')('INSERT OR REPLACE of an old entry is refused', async () => {
    const { store, ids } = await withEntries(3);
    await expect(
      store.run(
        `INSERT OR REPLACE INTO audit_log (id, at, kind, detail) VALUES (?, 'x', 'key_added', '{}')`,
        [ids[0]!],
      ),
    ).rejects.toThrow(/append-only/);
    expect(await verifyAuditChain(store)).toEqual({ ok: true, entries: 3 });
  });

  it('an entry changed behind the guards is named', async () => {
    const { store, ids } = await withEntries(4);
    await dropGuards(store);
    await store.run(`UPDATE audit_log SET detail = '{"rows":99}' WHERE id = ?`, [ids[1]!]);
    expect(await verifyAuditChain(store)).toMatchObject({
      ok: false,
      firstBroken: { id: ids[1] },
      reason: 'changed',
    });
  });

  it('an entry removed behind the guards is named by the one after it', async () => {
    const { store, ids } = await withEntries(4);
    await dropGuards(store);
    await store.run(`DELETE FROM audit_log WHERE id = ?`, [ids[1]!]);
    expect(await verifyAuditChain(store)).toMatchObject({
      ok: false,
      firstBroken: { id: ids[2] },
      reason: 'predecessor_missing_or_changed',
    });
  });

  it('entries appended at once keep one chain; an act rolled back takes its entry with it', async () => {
    const store = await stores.open();
    await Promise.all([1, 2, 3, 4, 5].map((i) => appendAuditAlone(store, entry(i))));
    await expect(
      store.transaction(async (tx) => {
        await appendAudit(tx, entry(6));
        throw new Error('the act failed after its entry was written');
      }),
    ).rejects.toThrow(/act failed/);
    expect(await verifyAuditChain(store)).toEqual({ ok: true, entries: 5 });
  });

  it('names the workstation (and on PostgreSQL the login) of each entry, and the site of the participant it is about; changing either breaks the chain', async () => {
    const store = await stores.open();
    const study = await store.get<{ id: number }>(
      `INSERT INTO studies (name, created_at) VALUES ('S', '2026-01-01') RETURNING id`,
    );
    const p = await store.get<{ id: number }>(
      `INSERT INTO participants (study_id, code, created_at, site_code) VALUES (?, 'P1', '2026-01-01', 'main') RETURNING id`,
      [study!.id],
    );
    await appendAuditAlone(store, entry(1));
    await store.transaction((tx) => appendAudit(tx, { ...entry(2), about: { participantId: p!.id } }));
    const rows = await store.all<{ member: string | null; workstation: string; site_code: string | null }>(
      'SELECT member, workstation, site_code FROM audit_log ORDER BY id',
    );
    const login =
      testEngine() === 'sqlite' ? null : (await store.get<{ u: string }>('SELECT session_user AS u'))!.u;
    expect(rows).toEqual([
      { member: login, workstation: workstationName(), site_code: null },
      { member: login, workstation: workstationName(), site_code: 'main' },
    ]);
    expect(await verifyAuditChain(store)).toEqual({ ok: true, entries: 2 });
    await dropGuards(store);
    await store.run(`UPDATE audit_log SET workstation = 'elsewhere' WHERE id = 1`);
    expect(await verifyAuditChain(store)).toMatchObject({
      ok: false,
      firstBroken: { id: 1 },
      reason: 'changed',
    });
  });
});
