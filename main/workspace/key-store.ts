/**
 * Where a service profile's API key is kept. The database holds only a reference (`key_ref`, its
 * schemes in shared/key-ref.ts), never the key: `env:NAME` for lab servers and scheduled jobs,
 * `key-file:<profile id>` in the workspace's keys folder, `safe-storage:<profile id>` that only the
 * Electron shell can read, through the `KeyVault` it passes in (main/electron).
 *
 * On a team database only the owner reads `key_ref`: every other member's workstation keeps its own
 * copy of a profile's key, under a name made from the database and the profile's name
 * (`teamServiceKeyName`), which the database never holds.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyRefOf, parseKeyRef } from '../../shared/key-ref';
import { err, ok, type Result } from '../../shared/result';

/** What the Electron shell provides (safeStorage); absent under plain Node. */
export interface KeyVault {
  readonly kind: 'safe-storage';
  save(name: string, key: string): void;
  load(name: string): string | null;
  remove(name: string): void;
}

export interface KeyStore {
  /** Stores a key for a profile and returns the reference to write in the database. */
  save(profileId: number, key: string): string;
  /** Stores a key that belongs to no profile (the built-in sandbox's) under a name; returns its reference. */
  saveNamed(name: string, key: string): string;
  load(keyRef: string | null): Result<string, string>;
  remove(keyRef: string | null): void;
  /** Stores this workstation's own copy of a key under `name` (the keychain if any, else a file); returns its reference. */
  saveOwn(name: string, key: string): string;
  /** The reference of this workstation's own key named `name`, wherever it was stored; null when there is none. */
  findOwn(name: string): string | null;
}

/** The name a workstation keeps its own key for a team database's service profile under. */
export const teamServiceKeyName = (database: string, profileName: string): string =>
  `service-${database}-${profileName}`.replace(/[^0-9A-Za-z_-]/g, '_');

export const createKeyStore = (opts: {
  keysDir: string;
  env?: NodeJS.ProcessEnv;
  vault?: KeyVault;
}): KeyStore => {
  const env = opts.env ?? process.env;
  const fileOf = (id: string) => join(opts.keysDir, `profile-${id.replace(/[^0-9A-Za-z_-]/g, '')}.key`);
  const saveFile = (name: string, key: string): string => {
    const file = fileOf(name);
    writeFileSync(file, key, { mode: 0o600 });
    chmodSync(file, 0o600);
    return keyRefOf('key-file', name);
  };
  const saveAs = (name: string, key: string): string => {
    if (opts.vault) {
      opts.vault.save(`profile-${name}`, key);
      return keyRefOf('safe-storage', name);
    }
    return saveFile(name, key);
  };
  return {
    save: (profileId, key) => saveAs(String(profileId), key),
    // Keys of Voicescope's own (the built-in sandbox's) guard only a simulated service on this computer:
    // always a 0600 file, so the desktop app without a keyring starts and the command line can read it.
    saveNamed: (name, key) => saveFile(name.replace(/[^0-9A-Za-z_-]/g, ''), key),
    load(keyRef) {
      if (keyRef === null)
        return err(
          'This service profile has no API key yet. Add the key your service administrator gave you.',
        );
      const { scheme, written, name } = parseKeyRef(keyRef);
      if (scheme === 'env') {
        const v = env[name];
        return v
          ? ok(v)
          : err(
              `The API key is read from the environment variable ${name}, which is not set in this session. Set it, or store the key with the profile.`,
            );
      }
      if (scheme === 'key-file') {
        const file = fileOf(name);
        if (!existsSync(file))
          return err(`The API key file for this profile is missing (${file}). Enter the key again.`);
        return ok(readFileSync(file, 'utf8').trim());
      }
      if (scheme === 'safe-storage') {
        if (!opts.vault)
          return err(
            "This profile's API key is kept in the desktop app's encrypted store, which only the desktop app can open. Use the app, or give the command line the key through an environment variable (--key-env).",
          );
        const v = opts.vault.load(`profile-${name}`);
        return v
          ? ok(v)
          : err('The encrypted API key for this profile could not be read. Enter the key again.');
      }
      return err(`Unknown key reference "${written}". Enter the API key again.`);
    },
    saveOwn: (name, key) => saveAs(name.replace(/[^0-9A-Za-z_-]/g, ''), key),
    findOwn(name) {
      const safe = name.replace(/[^0-9A-Za-z_-]/g, '');
      if (opts.vault?.load(`profile-${safe}`)) return keyRefOf('safe-storage', safe);
      return existsSync(fileOf(safe)) ? keyRefOf('key-file', safe) : null;
    },
    remove(keyRef) {
      if (keyRef === null) return;
      const { scheme, name } = parseKeyRef(keyRef);
      if (scheme === 'key-file') rmSync(fileOf(name), { force: true });
      if (scheme === 'safe-storage') opts.vault?.remove(`profile-${name}`);
    },
  };
};
