/**
 * API keys in the desktop app: encrypted with Electron's `safeStorage` (macOS Keychain, Windows DPAPI,
 * Linux libsecret or KWallet) and written as ciphertext files (0600) in the workspace's keys folder;
 * the study database holds only the reference `safe-storage:<profile id>`.
 *
 * On Linux without a keyring, Chromium silently falls back to a fixed built-in password ("basic_text"),
 * which protects nothing. That backend is detected with `getSelectedStorageBackend()` (not with
 * `isEncryptionAvailable()`, whose answer for basic_text has changed between Electron versions) and
 * refused: a key is saved that way only after the researcher accepted it in a dialog, and the
 * acceptance is remembered (and written to the audit log by the shell).
 *
 * The asynchronous safeStorage API is used where the `KeyVault` contract allows it: all stored keys
 * are decrypted once at start (re-encrypted when `shouldReEncrypt` says the key rotated) and new ones
 * are encrypted and written behind a synchronous `save` (which keeps the plain key in memory for this
 * session); `flush()` waits for those writes and is awaited before the app quits.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { KeyVault } from '../workspace/key-store';

/** The parts of Electron's safeStorage the vault uses. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plain: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  getSelectedStorageBackend?(): string;
}

export type KeyStorageStatus =
  | { readonly kind: 'os'; readonly backend: string }
  | { readonly kind: 'weak'; readonly backend: string; readonly accepted: boolean }
  | { readonly kind: 'unavailable' };

/** Where the researcher's acceptance of weak storage is remembered (a small file in the app's data folder). */
export interface Consent {
  accepted(): boolean;
  accept(at: string): void;
}

export const fileConsent = (file: string): Consent => ({
  accepted() {
    try {
      return (
        (JSON.parse(readFileSync(file, 'utf8')) as { acceptedWeakKeyStorage?: unknown })
          .acceptedWeakKeyStorage === true
      );
    } catch {
      return false;
    }
  },
  accept(at) {
    writeFileSync(file, `${JSON.stringify({ acceptedWeakKeyStorage: true, at })}\n`, { mode: 0o600 });
  },
});

/** Backends that mean "no real keyring": Chromium's fixed password, or not decided (before `ready`). */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

export const detectKeyStorage = async (
  ss: SafeStorageLike,
  platform: NodeJS.Platform,
  consent: Consent,
): Promise<KeyStorageStatus> => {
  if (platform === 'linux') {
    const backend = ss.getSelectedStorageBackend?.() ?? 'unknown';
    if (WEAK_BACKENDS.has(backend)) return { kind: 'weak', backend, accepted: consent.accepted() };
    return (await ss.isAsyncEncryptionAvailable()) ? { kind: 'os', backend } : { kind: 'unavailable' };
  }
  return (await ss.isAsyncEncryptionAvailable())
    ? { kind: 'os', backend: platform === 'darwin' ? 'keychain' : 'dpapi' }
    : { kind: 'unavailable' };
};

/** Thrown by `save` when the key may not be stored; the study service shows message and action. */
export class KeyStorageRefused extends Error {
  constructor(
    message: string,
    readonly action: string,
  ) {
    super(message);
    this.name = 'KeyStorageRefused';
  }
}

export interface SafeStorageVault extends KeyVault {
  status(): KeyStorageStatus;
  /** Resolves when every key saved so far is on disk. */
  flush(): Promise<void>;
}

export interface VaultOptions {
  readonly safeStorage: SafeStorageLike;
  /** The folder for ciphertext files (the workspace's keys folder). */
  readonly dir: string;
  readonly status: KeyStorageStatus;
  readonly consent: Consent;
  /** Asks the researcher, synchronously (a modal dialog), whether to store keys with weak protection. */
  readonly askToAcceptWeak: () => boolean;
  /** Told when the researcher accepted (the shell writes it to the audit log). */
  readonly onAccepted?: (at: string) => void;
  readonly log: {
    warn(message: string, ...detail: unknown[]): void;
    error(message: string, ...detail: unknown[]): void;
  };
  readonly now?: () => number;
}

const FILE = /^([A-Za-z0-9_-]{1,100})\.enc$/;
const fileOf = (dir: string, name: string) => {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(name)) throw new Error('invalid key name');
  return join(dir, `${name}.enc`);
};

const writeAtomic = (file: string, data: Buffer) => {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
};

export const openSafeStorageVault = async (o: VaultOptions): Promise<SafeStorageVault> => {
  mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  const now = o.now ?? Date.now;
  let status = o.status;
  const keys = new Map<string, string>();
  /** One chain of disk writes per key name, so a save followed by a removal lands in that order. */
  const chains = new Map<string, Promise<void>>();
  const enqueue = (name: string, step: () => Promise<void>) => {
    const next = (chains.get(name) ?? Promise.resolve()).then(step).catch((e: unknown) => {
      o.log.error(
        `key vault: the encrypted key file for ${name} could not be written; the key works until Voicescope quits`,
        e instanceof Error ? e.message : e,
      );
    });
    chains.set(name, next);
  };

  if (status.kind !== 'unavailable') {
    for (const entry of readdirSync(o.dir)) {
      const m = FILE.exec(entry);
      if (!m) continue;
      const name = m[1]!;
      try {
        const { result, shouldReEncrypt } = await o.safeStorage.decryptStringAsync(
          readFileSync(join(o.dir, entry)),
        );
        keys.set(name, result);
        if (shouldReEncrypt)
          enqueue(name, async () =>
            writeAtomic(fileOf(o.dir, name), await o.safeStorage.encryptStringAsync(result)),
          );
      } catch {
        o.log.warn(
          `key vault: the stored key ${name} could not be decrypted (the keyring changed?); it must be entered again`,
        );
      }
    }
  }

  const mayStore = () => {
    if (status.kind === 'os') return;
    if (status.kind === 'unavailable') {
      throw new KeyStorageRefused(
        "The operating system's key store is not available, so the API key cannot be saved securely.",
        'Unlock or set up your keychain (on Linux: GNOME Keyring or KWallet), restart Voicescope, then enter the key again.',
      );
    }
    if (status.accepted) return;
    if (o.askToAcceptWeak()) {
      const at = new Date(now()).toISOString();
      o.consent.accept(at);
      status = { ...status, accepted: true };
      o.onAccepted?.(at);
      return;
    }
    throw new KeyStorageRefused(
      'This computer has no keyring, so Voicescope did not save the API key (it would only be hidden with a password built into Chromium, which anyone who can read your files can undo).',
      'Install and unlock GNOME Keyring or KWallet, then restart Voicescope and enter the key again; or save the key again and accept the weaker protection.',
    );
  };

  return {
    kind: 'safe-storage',
    status: () => status,
    save(name, key) {
      const file = fileOf(o.dir, name);
      mayStore();
      keys.set(name, key);
      enqueue(name, async () => writeAtomic(file, await o.safeStorage.encryptStringAsync(key)));
    },
    load: (name) => keys.get(name) ?? null,
    remove(name) {
      const file = fileOf(o.dir, name);
      keys.delete(name);
      enqueue(name, async () => {
        if (existsSync(file)) rmSync(file, { force: true });
      });
    },
    async flush() {
      await Promise.all([...chains.values()]);
    },
  };
};

/** What `app.info` tells the researcher about key storage in the desktop app. */
export const keyStorageInfo = (
  s: KeyStorageStatus,
): { kind: 'safe-storage'; protectedByOs: boolean; notice: string } => {
  switch (s.kind) {
    case 'os':
      return {
        kind: 'safe-storage',
        protectedByOs: true,
        notice:
          "API keys are encrypted with your operating system's keychain and never stored in the study database, logs or exports.",
      };
    case 'weak':
      return s.accepted
        ? {
            kind: 'safe-storage',
            protectedByOs: false,
            notice:
              'This computer has no keyring. You accepted keeping API keys hidden with a password built into Chromium: that is not real protection, anyone who can read your files can recover them. Install GNOME Keyring or KWallet and enter the keys again to protect them.',
          }
        : {
            kind: 'safe-storage',
            protectedByOs: false,
            notice:
              'This computer has no keyring (GNOME Keyring or KWallet), so Voicescope cannot protect API keys. It asks before saving a key with weaker protection; to avoid that, install and unlock a keyring and restart Voicescope.',
          };
    case 'unavailable':
      return {
        kind: 'safe-storage',
        protectedByOs: false,
        notice:
          "The operating system's key store is not available, so API keys cannot be saved. Unlock or set up your keychain and restart Voicescope.",
      };
  }
};
