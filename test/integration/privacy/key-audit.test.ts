/**
 * Key changes through the study service: each is written to the audit log (profile, what happened,
 * where the key is kept, never the key), and a key store that refuses to store a key (the desktop app
 * on Linux without a keyring) is a refusal in the researcher's words that leaves the old key in place.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditPage } from '../../../main/db/repos/audit.repo';
import { describeAuditCheck } from '../../../main/privacy/audit-check';
import type { KeyVault } from '../../../main/workspace/key-store';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService, testEngine } from '../../support/test-engine';

const KEY = 'vs-audit-key-5b1e93c0';
const open: { svc: StudyService; home: string }[] = [];
const service = async (vault?: KeyVault) => {
  const home = mkdtempSync(join(tmpdir(), 'vs-keyaudit-'));
  const svc = await openTestStudyService({ workspaceDir: home, ...(vault ? { vault } : {}) });
  open.push({ svc, home });
  return { svc, home };
};
afterEach(async () => {
  for (const { svc, home } of open.splice(0)) {
    await svc.close();
    rmSync(home, { recursive: true, force: true });
  }
});

const kinds = async (svc: StudyService) =>
  (await auditPage(svc.store, 0, 50)).rows.map((r) => `${r.kind}:${r.detail['storage']}`);

describe('key changes are audited', () => {
  it('added, replaced and removed, with where the key is kept and never the key', async () => {
    const { svc, home } = await service();
    const p = await svc.createProfile({
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect((await svc.setProfileKey(p.value.id, `${KEY}-new`)).ok).toBe(true);
    expect((await svc.setProfileKey(p.value.id, null)).ok).toBe(true);
    expect((await svc.setProfileKey(p.value.id, null)).ok).toBe(true); // nothing to remove: nothing audited
    expect(await kinds(svc)).toEqual(['key_removed:key-file', 'key_replaced:key-file', 'key_added:key-file']);
    expect((await auditPage(svc.store, 0, 1)).rows[0]).toMatchObject({
      profileId: p.value.id,
      subject: 'Lab',
    });
    expect(readdirSync(join(home, 'keys'))).toEqual([]);
    const env = await svc.createProfile({
      name: 'Server',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      keyEnv: 'LAB_KEY',
    });
    expect(env.ok).toBe(true);
    expect((await kinds(svc))[0]).toBe('key_added:env');
  });

  // The bytes of the study's SQLite file; on PGlite the study is in memory.
  it.skipIf(testEngine() !== 'sqlite')('leaves no byte of the key in the study file', async () => {
    const { svc } = await service();
    const p = await svc.createProfile({
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    expect(p.ok).toBe(true);
    if (p.ok) expect((await svc.setProfileKey(p.value.id, `${KEY}-new`)).ok).toBe(true);
    expect(readFileSync(svc.workspace.dbPath).includes(Buffer.from(KEY))).toBe(false);
  });

  it('a key store that refuses says why, creates no profile and keeps the old key', async () => {
    let refuse = false;
    const stored = new Map<string, string>();
    const vault: KeyVault = {
      kind: 'safe-storage',
      save(name, key) {
        if (refuse)
          throw Object.assign(
            new Error('This computer has no keyring, so Voicescope did not save the API key.'),
            { action: 'Install a keyring.' },
          );
        stored.set(name, key);
      },
      load: (name) => stored.get(name) ?? null,
      remove: (name) => {
        stored.delete(name);
      },
    };
    const { svc } = await service(vault);
    const p = await svc.createProfile({
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    if (!p.ok) throw new Error(p.error.message);
    refuse = true;
    const replaced = await svc.setProfileKey(p.value.id, `${KEY}-new`);
    expect(replaced).toEqual({
      ok: false,
      error: {
        message: 'This computer has no keyring, so Voicescope did not save the API key.',
        action: 'Install a keyring.',
      },
    });
    expect(stored.get(`profile-${p.value.id}`)).toBe(KEY);
    expect((await svc.listProfiles())[0]!.keyRef).toBe(`safe-storage:${p.value.id}`);
    const created = await svc.createProfile({
      name: 'Second',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    expect(created.ok).toBe(false);
    expect((await svc.listProfiles()).map((x) => x.name)).toEqual(['Lab']);
    expect(await kinds(svc)).toEqual(['key_added:safe-storage']);
  });
});

describe('the audit log checks its own chain (audit.verify, the Privacy page)', () => {
  it('holds after key changes; names the first altered entry, in words, when one is changed', async () => {
    const { svc } = await service();
    const p = await svc.createProfile({
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    if (!p.ok) throw new Error(p.error.message);
    expect((await svc.setProfileKey(p.value.id, null)).ok).toBe(true);
    expect(describeAuditCheck(await svc.verifyAudit())).toEqual({ holds: true, entries: 2 });
    // Someone with the database in hand removes the guard against changes, and changes an entry.
    await svc.store.run(
      testEngine() === 'sqlite'
        ? 'DROP TRIGGER audit_log_no_update'
        : 'DROP TRIGGER audit_log_no_change ON audit_log',
    );
    await svc.store.run(`UPDATE audit_log SET subject = 'Other lab' WHERE id = 1`);
    const v = describeAuditCheck(await svc.verifyAudit());
    expect(v).toMatchObject({ holds: false, firstBroken: { id: 1, kind: 'key_added' }, reason: 'changed' });
    expect(v.holds ? '' : `${v.message} ${v.action}`).toMatch(
      /entry 1 \(key_added, .+\) was changed after it was written\. Entries from 1 on cannot be trusted/,
    );
  });
});
