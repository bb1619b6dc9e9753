/**
 * The window's security rules (main/electron/security.ts), driven the way Electron drives them: events
 * on a web contents, the window-open handler, the session's permission, download and request hooks.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  EXTERNAL_HOSTS,
  hardenContents,
  hardenSession,
  isAllowedExternal,
  isAppUrl,
  isLocalRequest,
  safeOpenExternal,
} from '../../../main/electron/security';
import { FakeWebContents } from './stand-in';

const log = () => ({ warn: vi.fn() });
const event = () => ({ preventDefault: vi.fn() });
const shell = () => ({ openExternal: vi.fn(() => Promise.resolve()) });

describe('what counts as the app', () => {
  it('is app://app and nothing that merely looks like it', () => {
    expect(isAppUrl('app://app/index.html#/studies/1')).toBe(true);
    for (const u of [
      'app://evil/index.html',
      'app://app.evil/x',
      'app://user@app/',
      'https://app/',
      'file:///index.html',
      'http://127.0.0.1:3000/',
      'javascript:alert(1)',
      'not a url',
      '',
    ]) {
      expect(isAppUrl(u), u).toBe(false);
    }
  });
});

describe('navigation', () => {
  it('stays inside app://app: leaving it, redirects and frame navigations elsewhere are blocked', () => {
    const wc = new FakeWebContents();
    const l = log();
    hardenContents(wc as never, shell(), l);
    for (const name of ['will-navigate', 'will-redirect', 'will-frame-navigate'] as const) {
      const away = { ...event(), url: 'https://evil.example/phish' };
      wc.emit(name, away, away.url);
      expect(away.preventDefault, name).toHaveBeenCalled();
      const inside = { ...event(), url: 'app://app/index.html#/audit' };
      wc.emit(name, inside, inside.url);
      expect(inside.preventDefault, name).not.toHaveBeenCalled();
    }
    // Electron ≥ 25 passes the target on the event only.
    const onlyOnEvent = { ...event(), url: 'file:///etc/passwd' };
    wc.emit('will-navigate', onlyOnEvent);
    expect(onlyOnEvent.preventDefault).toHaveBeenCalled();
    expect(l.warn).toHaveBeenCalled();
  });

  it('refuses <webview>', () => {
    const wc = new FakeWebContents();
    hardenContents(wc as never, shell(), log());
    const e = event();
    wc.emit('will-attach-webview', e);
    expect(e.preventDefault).toHaveBeenCalled();
  });
});

describe('new windows and external links', () => {
  it('denies every new window; only allowlisted https addresses reach the system browser', () => {
    const wc = new FakeWebContents();
    const sh = shell();
    hardenContents(wc as never, sh, log());
    const open = (url: string) => wc.windowOpenHandler!({ url });
    expect(open(`https://${EXTERNAL_HOSTS[0]}/guide`)).toEqual({ action: 'deny' });
    expect(open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(open('app://app/index.html')).toEqual({ action: 'deny' });
    expect(sh.openExternal.mock.calls).toEqual([[`https://${EXTERNAL_HOSTS[0]}/guide`]]);
  });

  it('parses the address: scheme, host, port and credentials must all be plain', () => {
    const host = EXTERNAL_HOSTS[0]!;
    expect(isAllowedExternal(`https://${host}/a?b=c#d`)).toBe(true);
    expect(isAllowedExternal(`https://${host.toUpperCase()}/`)).toBe(true);
    for (const u of [
      `http://${host}/`,
      `https://${host}.evil.example/`,
      `https://evil.example/${host}`,
      `https://user:pw@${host}/`,
      `https://${host}:8443/`,
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
      `\\\\${host}\\share`,
      'mailto:x@y.z',
      '',
    ]) {
      expect(isAllowedExternal(u), u).toBe(false);
    }
    const sh = shell();
    expect(safeOpenExternal(sh, 'https://evil.example/', log())).toBe(false);
    expect(sh.openExternal).not.toHaveBeenCalled();
  });
});

describe('session', () => {
  const hardened = () => {
    const s = {
      request: null as null | ((wc: unknown, p: string, cb: (g: boolean) => void) => void),
      check: null as null | ((wc: unknown, p: string) => boolean),
      device: null as null | (() => boolean),
      before: null as null | ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void),
      download: null as null | ((e: { preventDefault(): void }) => void),
    };
    hardenSession(
      {
        setPermissionRequestHandler: (h) => {
          s.request = h;
        },
        setPermissionCheckHandler: (h) => {
          s.check = h;
        },
        setDevicePermissionHandler: (h) => {
          s.device = h;
        },
        on: (_e, l) => {
          s.download = l;
        },
        webRequest: {
          onBeforeRequest: (_f, l) => {
            s.before = l;
          },
        },
      },
      log(),
    );
    return s;
  };

  it('denies every permission request and check', () => {
    const s = hardened();
    for (const p of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'clipboard-sanitized-write',
      'fullscreen',
      'openExternal',
      'hid',
      'serial',
      'usb',
    ]) {
      const cb = vi.fn();
      s.request!({}, p, cb);
      expect(cb, p).toHaveBeenCalledWith(false);
      expect(s.check!({}, p), p).toBe(false);
    }
    expect(s.device!()).toBe(false);
  });

  it('refuses downloads the page starts', () => {
    const s = hardened();
    const e = event();
    s.download!(e);
    expect(e.preventDefault).toHaveBeenCalled();
  });

  it('loads no remote content: only the app scheme (and inline data) pass', () => {
    const s = hardened();
    const decide = (url: string) => {
      let r: { cancel: boolean } | null = null;
      s.before!({ url }, (x) => {
        r = x;
      });
      return r;
    };
    expect(decide('app://app/app.js')).toEqual({ cancel: false });
    expect(decide('data:image/png;base64,AAAA')).toEqual({ cancel: false });
    for (const u of [
      'https://cdn.example/x.js',
      'http://127.0.0.1:4010/v1.3/ping',
      'ws://127.0.0.1:5000/rpc',
      'file:///etc/passwd',
      'app://evil/x.js',
    ]) {
      expect(decide(u), u).toEqual({ cancel: true });
      expect(isLocalRequest(u), u).toBe(false);
    }
  });
});
