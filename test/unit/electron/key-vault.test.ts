/**
 * API keys in the desktop app (main/electron/key-vault.ts) with a stand-in for safeStorage: a round
 * trip through ciphertext files, replacement and removal, and Linux without a keyring (basic_text)
 * refused unless the researcher accepts, the acceptance remembered.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  detectKeyStorage,
  fileConsent,
  KeyStorageRefused,
  keyStorageInfo,
  openSafeStorageVault,
  type KeyStorageStatus,
  type SafeStorageLike,
} from '../../../main/electron/key-vault';
import { createElectronStandIn } from './stand-in';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-vault-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const KEY = 'vs-live-key-4f9c2a7e1b';
const safeStorage = (backend = 'gnome_libsecret'): SafeStorageLike =>
  createElectronStandIn({ backend, userData: '/nonexistent' }).electron.safeStorage;
const log = () => ({ warn: vi.fn(), error: vi.fn() });

const open = async (
  dir: string,
  status: KeyStorageStatus,
  o: { ask?: () => boolean; consentFile?: string; ss?: SafeStorageLike } = {},
) =>
  openSafeStorageVault({
    safeStorage: o.ss ?? safeStorage(),
    dir: join(dir, 'keys'),
    status,
    consent: fileConsent(o.consentFile ?? join(dir, 'consent.json')),
    askToAcceptWeak:
      o.ask ??
      (() => {
        throw new Error('must not ask');
      }),
    log: log(),
  });

describe('detecting the key store', () => {
  it('Linux with a keyring, macOS and Windows: the operating system protects the keys', async () => {
    const consent = fileConsent(join(tmp(), 'c.json'));
    expect(await detectKeyStorage(safeStorage('gnome_libsecret'), 'linux', consent)).toEqual({
      kind: 'os',
      backend: 'gnome_libsecret',
    });
    expect(await detectKeyStorage(safeStorage('kwallet6'), 'linux', consent)).toEqual({
      kind: 'os',
      backend: 'kwallet6',
    });
    expect(await detectKeyStorage(safeStorage(), 'darwin', consent)).toEqual({
      kind: 'os',
      backend: 'keychain',
    });
    expect(await detectKeyStorage(safeStorage(), 'win32', consent)).toEqual({ kind: 'os', backend: 'dpapi' });
  });

  it('Linux without a keyring (basic_text, or not decided) is weak, even when safeStorage says encryption is available', async () => {
    const consent = fileConsent(join(tmp(), 'c.json'));
    const ss = safeStorage('basic_text');
    expect(await ss.isAsyncEncryptionAvailable()).toBe(true);
    expect(await detectKeyStorage(ss, 'linux', consent)).toEqual({
      kind: 'weak',
      backend: 'basic_text',
      accepted: false,
    });
    expect(await detectKeyStorage(safeStorage('unknown'), 'linux', consent)).toEqual({
      kind: 'weak',
      backend: 'unknown',
      accepted: false,
    });
    consent.accept('2026-11-22T10:00:00.000Z');
    expect(await detectKeyStorage(ss, 'linux', consent)).toEqual({
      kind: 'weak',
      backend: 'basic_text',
      accepted: true,
    });
  });

  it('no encryption at all is unavailable', async () => {
    const ss = { ...safeStorage(), isAsyncEncryptionAvailable: async () => false };
    expect(await detectKeyStorage(ss, 'darwin', fileConsent(join(tmp(), 'c.json')))).toEqual({
      kind: 'unavailable',
    });
  });
});

describe('the vault with a keyring', () => {
  it('round trip: the key is written encrypted (0600), read back by the next launch, replaced and removed', async () => {
    const dir = tmp();
    const v = await open(dir, { kind: 'os', backend: 'gnome_libsecret' });
    v.save('profile-1', KEY);
    expect(v.load('profile-1')).toBe(KEY);
    await v.flush();
    const file = join(dir, 'keys', 'profile-1.enc');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).includes(Buffer.from(KEY))).toBe(false);

    const next = await open(dir, { kind: 'os', backend: 'gnome_libsecret' });
    expect(next.load('profile-1')).toBe(KEY);
    next.save('profile-1', 'vs-replacement-key-77');
    await next.flush();
    expect((await open(dir, { kind: 'os', backend: 'gnome_libsecret' })).load('profile-1')).toBe(
      'vs-replacement-key-77',
    );
    next.remove('profile-1');
    expect(next.load('profile-1')).toBeNull();
    await next.flush();
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(dir, 'keys'))).toEqual([]);
  });

  it('a key that cannot be decrypted any more (the keyring changed) reads as missing, so the researcher enters it again', async () => {
    const dir = tmp();
    const v = await open(dir, { kind: 'os', backend: 'kwallet5' });
    v.save('profile-2', KEY);
    await v.flush();
    writeFileSync(join(dir, 'keys', 'profile-2.enc'), 'garbage');
    expect((await open(dir, { kind: 'os', backend: 'kwallet5' })).load('profile-2')).toBeNull();
  });

  it('re-encrypts a key when safeStorage says its key rotated', async () => {
    const dir = tmp();
    const ss = safeStorage();
    const v = await open(dir, { kind: 'os', backend: 'keychain' }, { ss });
    v.save('profile-3', KEY);
    await v.flush();
    const encrypt = vi.fn(ss.encryptStringAsync);
    const rotated: SafeStorageLike = {
      ...ss,
      encryptStringAsync: encrypt,
      decryptStringAsync: async (b) => ({ ...(await ss.decryptStringAsync(b)), shouldReEncrypt: true }),
    };
    const w = await open(dir, { kind: 'os', backend: 'keychain' }, { ss: rotated });
    await w.flush();
    expect(encrypt).toHaveBeenCalledWith(KEY);
    expect(w.load('profile-3')).toBe(KEY);
  });
});

describe('Linux without a keyring (basic_text)', () => {
  const weak: KeyStorageStatus = { kind: 'weak', backend: 'basic_text', accepted: false };

  it('refuses to store a key when the researcher declines, and writes nothing', async () => {
    const dir = tmp();
    const ask = vi.fn(() => false);
    const v = await open(dir, weak, { ask });
    expect(() => v.save('profile-1', KEY)).toThrow(KeyStorageRefused);
    try {
      v.save('profile-1', KEY);
    } catch (e) {
      expect((e as KeyStorageRefused).message).toMatch(/no keyring/);
      expect((e as KeyStorageRefused).action).toMatch(/GNOME Keyring or KWallet/);
    }
    await v.flush();
    expect(ask).toHaveBeenCalledTimes(2);
    expect(v.load('profile-1')).toBeNull();
    expect(readdirSync(join(dir, 'keys'))).toEqual([]);
    expect(existsSync(join(dir, 'consent.json'))).toBe(false);
    expect(v.status()).toEqual(weak);
  });

  it('stores it once the researcher accepts, and remembers the acceptance across launches', async () => {
    const dir = tmp();
    const v = await open(dir, weak, { ask: () => true });
    v.save('profile-1', KEY);
    await v.flush();
    expect(v.status()).toEqual({ ...weak, accepted: true });
    expect(JSON.parse(readFileSync(join(dir, 'consent.json'), 'utf8'))).toMatchObject({
      acceptedWeakKeyStorage: true,
    });
    const status = await detectKeyStorage(
      safeStorage('basic_text'),
      'linux',
      fileConsent(join(dir, 'consent.json')),
    );
    const next = await open(dir, status);
    expect(next.load('profile-1')).toBe(KEY);
    next.save('profile-2', 'vs-second-key-1234');
    await next.flush();
    expect(existsSync(join(dir, 'keys', 'profile-2.enc'))).toBe(true);
  });

  it('says what it means in app.info: not protected, and what to do', () => {
    expect(keyStorageInfo({ kind: 'os', backend: 'keychain' })).toMatchObject({
      kind: 'safe-storage',
      protectedByOs: true,
    });
    expect(keyStorageInfo(weak)).toMatchObject({
      protectedByOs: false,
      notice: expect.stringMatching(/no keyring.*asks before saving/),
    });
    expect(keyStorageInfo({ ...weak, accepted: true })).toMatchObject({
      protectedByOs: false,
      notice: expect.stringMatching(/not real protection/),
    });
    expect(keyStorageInfo({ kind: 'unavailable' })).toMatchObject({ protectedByOs: false });
  });

  it('with no key store at all, nothing is stored', async () => {
    const v = await open(tmp(), { kind: 'unavailable' });
    expect(() => v.save('profile-1', KEY)).toThrow(/not available/);
  });
});
