/**
 * The desktop shell's entry (main/electron/main.ts) started against a stand-in for `electron`, on a
 * real app host in a temporary workspace, on Linux without a keyring: what happens before `ready`, the
 * window's settings, the session's rules, the app:// handler, IPC from the window and from elsewhere,
 * the basic_text refusal and acceptance as the researcher meets them, and a clean quit.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { createElectronStandIn } from './stand-in';

const h = vi.hoisted(() => {
  const { mkdtempSync: mk } = require('node:fs') as typeof import('node:fs');
  const { tmpdir: td } = require('node:os') as typeof import('node:os');
  const home = mk(`${td()}/vs-shell-`);
  process.env['VOICESCOPE_HOME'] = `${home}/workspace`;
  return { home, answer: 0, standIn: null as ReturnType<typeof createElectronStandIn> | null };
});
vi.mock('electron', async () => {
  const { createElectronStandIn } = await import('./stand-in');
  h.standIn = createElectronStandIn({
    backend: 'basic_text',
    userData: h.home,
    messageBoxAnswer: () => h.answer,
  });
  return h.standIn.electron;
});

const KEY = 'vs-shell-test-key-93be11';
const APP = 'app://app/index.html#/settings';
const s = () => h.standIn!;
const call = (method: string, input: unknown, url = APP, parent: unknown = null) =>
  s().invoke('app:rpc', url, { method, input }, parent) as Promise<{
    ok: boolean;
    value?: any;
    error?: { code: string; message: string; action: string };
  }>;

beforeAll(async () => {
  await import('../../../main/electron/main');
  expect(s().calls.slice(0, 2)).toEqual([
    'enableSandbox',
    'registerSchemesAsPrivileged [{"scheme":"app","privileges":{"standard":true,"secure":true,"stream":true}}]',
  ]);
  s().ready();
  await vi.waitFor(() => expect(s().windows).toHaveLength(1), { timeout: 20_000 });
}, 30_000);

afterAll(async () => {
  s().electron.app.quit();
  await vi.waitFor(() => expect(s().calls.filter((c) => c === 'quit').length).toBeGreaterThanOrEqual(2), {
    timeout: 10_000,
  });
  rmSync(h.home, { recursive: true, force: true });
});

describe('desktop shell', () => {
  it('opens one window with the security settings, on app://app', () => {
    const w = s().windows[0]!;
    expect(w.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      devTools: true,
    });
    expect(w.options.webPreferences['preload']).toMatch(/preload[/\\]preload\.cjs$/);
    for (const k of [
      'webSecurity',
      'allowRunningInsecureContent',
      'experimentalFeatures',
      'enableBlinkFeatures',
    ])
      expect(w.options.webPreferences).not.toHaveProperty(k);
    expect(w.webContents.getURL()).toBe('app://app/index.html');
    expect(s().calls).toContain('protocol.handle app');
    expect(s().calls).toContain('setApplicationMenu');
  });

  it('hardens every web contents and the session', () => {
    const wc = s().windows[0]!.webContents;
    expect(wc.listenerCount('will-navigate')).toBe(1);
    expect(wc.windowOpenHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    const cb = vi.fn();
    s().session.permissionRequest!({}, 'media', cb);
    expect(cb).toHaveBeenCalledWith(false);
    expect(s().session.permissionCheck!({}, 'notifications')).toBe(false);
  });

  it('never starts the crash reporter', () => {
    expect(s().calls).not.toContain('crashReporter.start');
  });

  it('answers the window over IPC and refuses any other sender', async () => {
    const info = await call('app.info', {});
    expect(info.ok).toBe(true);
    expect(info.value).toMatchObject({
      mode: 'electron',
      keyStorage: { kind: 'safe-storage', protectedByOs: false },
    });
    expect(info.value.keyStorage.notice).toMatch(/no keyring/);
    expect((await call('app.info', {}, 'https://evil.example/')).error?.code).toBe('FORBIDDEN');
    expect((await call('app.info', {}, APP, { url: APP })).error?.code).toBe('FORBIDDEN');
    await expect(s().invoke('app:event', APP, { method: 'app.info', input: {} })).rejects.toThrow(
      /No handler/,
    );
  });

  it('on Linux without a keyring, a key is not saved until the researcher accepts; then it is, encrypted, and both are audited', async () => {
    h.answer = 0;
    const refused = await call('profiles.create', {
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({
      code: 'REFUSED',
      message: expect.stringMatching(/no keyring/),
      action: expect.stringMatching(/GNOME Keyring or KWallet/),
    });
    expect((await call('profiles.list', {})).value).toEqual([]);
    expect(s().electron.dialog.asked).toBe(1);

    h.answer = 1;
    const created = await call('profiles.create', {
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    expect(created.ok).toBe(true);
    expect(created.value).toMatchObject({ hasKey: true, keyLocation: "the operating system's keychain" });
    expect(JSON.stringify(created.value)).not.toContain(KEY);
    expect(JSON.parse(readFileSync(join(h.home, 'key-storage.json'), 'utf8'))).toMatchObject({
      acceptedWeakKeyStorage: true,
    });

    const audit = await call('audit.list', {});
    expect(audit.value.rows.map((r: { kind: string }) => r.kind)).toEqual([
      'key_added',
      'key_storage_accepted',
    ]);
    await vi.waitFor(() =>
      expect(existsSync(join(h.home, 'workspace', 'keys', `profile-${created.value.id}.enc`))).toBe(true),
    );
    const keysDir = join(h.home, 'workspace', 'keys');
    for (const f of readdirSync(keysDir))
      expect(readFileSync(join(keysDir, f)).includes(Buffer.from(KEY)), f).toBe(false);
    expect(readFileSync(join(h.home, 'workspace', 'voicescope.sqlite')).includes(Buffer.from(KEY))).toBe(
      false,
    );

    // Replaced and removed, without asking again.
    expect((await call('profiles.replaceKey', { profileId: created.value.id, apiKey: `${KEY}-2` })).ok).toBe(
      true,
    );
    expect((await call('profiles.removeKey', { profileId: created.value.id })).value).toMatchObject({
      hasKey: false,
    });
    expect(s().electron.dialog.asked).toBe(2);
    expect(
      (await call('audit.list', {})).value.rows.map((r: { kind: string }) => r.kind).slice(0, 2),
    ).toEqual(['key_removed', 'key_replaced']);
  });

  it('serves the built renderer through app:// with the CSP, and nothing outside it', async () => {
    const handler = s().electron.protocol.handlers.get('app')!;
    const res = await handler({ method: 'GET', url: 'app://app/../../package.json' } as Request);
    expect(res.status).toBe(404);
  });
});
