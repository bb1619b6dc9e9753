/**
 * Which key a workstation sends under (main/services/service-key.ts): on a team database a member's
 * workstation keeps its own copy of the service's key, stored once in its key store and never in the
 * database; a coordinator's workstation without one is told whom to ask and what to run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { noKeyOnWorkstation, ownKeyName, sendingKeyRef } from '../../../main/services/service-key';
import type { TeamSession } from '../../../main/services/team-rights';
import { createKeyStore, type KeyStore } from '../../../main/workspace/key-store';

const member = (role: TeamSession['role']): TeamSession => ({
  login: `x_${role}`,
  role,
  database: 'db.example.org-5432-study',
});
const PROFILE = { name: 'Lab account', key_ref: null };
let dir: string;
let keys: KeyStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vs-service-key-'));
  keys = createKeyStore({ keysDir: dir, env: {} });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("tells a coordinator's workstation without the key to ask the owner, and the command to store it", () => {
  expect(sendingKeyRef(keys, member('coordinator'), PROFILE)).toEqual({
    ok: false,
    error: noKeyOnWorkstation('Lab account'),
  });
  expect(noKeyOnWorkstation('Lab account')).toEqual({
    message: 'This workstation has no key for the service profile Lab account.',
    action:
      'Ask the study\'s owner for it, then run voicescope profile key --profile "Lab account" --key-stdin (and paste the key), or enter it on the profile\'s page in the window.',
  });
});

it('sends under the key the workstation stored for the profile on that database', () => {
  const ref = keys.saveOwn(ownKeyName(member('coordinator'), 'Lab account')!, 'k-123');
  const found = sendingKeyRef(keys, member('coordinator'), PROFILE);
  expect(found).toEqual({ ok: true, value: ref });
  expect(keys.load(ref)).toEqual({ ok: true, value: 'k-123' });
  // The same profile name on another database is another key.
  const elsewhere = { ...member('coordinator'), database: 'other-5432-study' };
  expect(sendingKeyRef(keys, elsewhere, PROFILE).ok).toBe(false);
});

it("uses the owner's key reference where the workstation keeps no copy of its own", () => {
  const owners = { name: 'Lab account', key_ref: 'key-file:1' };
  expect(sendingKeyRef(keys, member('owner'), owners)).toEqual({ ok: true, value: 'key-file:1' });
  expect(sendingKeyRef(keys, null, owners)).toEqual({ ok: true, value: 'key-file:1' });
  // Outside a team database there is no workstation copy: a profile without a key says so when loaded.
  expect(sendingKeyRef(keys, null, PROFILE)).toEqual({ ok: true, value: null });
});
