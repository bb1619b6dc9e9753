/**
 * The window's security rules, one function per checklist item (Electron security guide), written
 * against the few methods they need so unit tests can pass stand-ins:
 *   - navigation stays inside `app://app`; redirects and `<webview>` are refused;
 *   - new windows are denied; an http(s) link the page opens goes to the system browser only when its
 *     host is on the allowlist (parsed with the URL parser, https only, no credentials or odd ports);
 *   - every permission request and check is denied; downloads started by the page are refused;
 *   - no remote content: requests to anything but the app's own scheme are cancelled.
 */
import { APP_HOST, APP_SCHEME } from './protocol';

export interface SecurityLog {
  warn(message: string, ...detail: unknown[]): void;
}

/** Hosts the app may open in the system browser (documentation); anything else is refused. */
export const EXTERNAL_HOSTS: readonly string[] = ['voicescope.org', 'docs.voicescope.org'];

/** True for the app's own pages (`app://app/...`) and nothing else. */
export const isAppUrl = (url: string): boolean => {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
  } catch {
    return false;
  }
};

/** An address the system browser may open: https, an allowlisted host, default port, no credentials. */
export const isAllowedExternal = (url: string, hosts: readonly string[] = EXTERNAL_HOSTS): boolean => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return (
    u.protocol === 'https:' &&
    u.port === '' &&
    !u.username &&
    !u.password &&
    hosts.includes(u.hostname.toLowerCase())
  );
};

export interface Shell {
  openExternal(url: string): Promise<void>;
}

/** Opens the address in the system browser if it is allowed; returns whether it did. */
export const safeOpenExternal = (
  shell: Shell,
  url: string,
  log: SecurityLog,
  hosts: readonly string[] = EXTERNAL_HOSTS,
): boolean => {
  if (!isAllowedExternal(url, hosts)) {
    log.warn('security: refused to open an external address that is not on the allowlist');
    return false;
  }
  void shell
    .openExternal(url)
    .catch(() => log.warn('security: the system browser could not open an allowed address'));
  return true;
};

interface PreventableEvent {
  preventDefault(): void;
}

/** The parts of WebContents the rules touch. */
export interface ContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate',
    listener: (event: PreventableEvent & { url?: string }, url?: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** Navigation, redirects, webviews and new windows, for every web contents the app creates. */
export const hardenContents = (contents: ContentsLike, shell: Shell, log: SecurityLog): void => {
  const stayInApp = (event: PreventableEvent & { url?: string }, url?: string) => {
    const target = url ?? event.url ?? '';
    if (!isAppUrl(target)) {
      event.preventDefault();
      log.warn('security: blocked navigation away from the app');
    }
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-frame-navigate', stayInApp);
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log.warn('security: blocked a <webview>');
  });
  contents.setWindowOpenHandler(({ url }) => {
    safeOpenExternal(shell, url, log);
    return { action: 'deny' };
  });
};

/** The parts of Session the rules touch. */
export interface SessionLike {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler?(handler: () => boolean): void;
  on(event: 'will-download', listener: (event: PreventableEvent) => void): unknown;
  webRequest: {
    onBeforeRequest(
      filter: { urls: string[] },
      listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void,
    ): void;
  };
}

/** Schemes the window may load from: its own, plus the inline images of the CSP (`data:`) and DevTools in development. */
const LOCAL_SCHEMES = new Set([`${APP_SCHEME}:`, 'data:', 'devtools:', 'chrome-extension:']);

export const isLocalRequest = (url: string): boolean => {
  try {
    const u = new URL(url);
    return LOCAL_SCHEMES.has(u.protocol) && (u.protocol !== `${APP_SCHEME}:` || u.host === APP_HOST);
  } catch {
    return false;
  }
};

export const hardenSession = (session: SessionLike, log: SecurityLog): void => {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log.warn(`security: denied a permission request (${permission})`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
  session.on('will-download', (event) => {
    event.preventDefault();
    log.warn('security: blocked a download started by the page');
  });
  session.webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, (details, callback) => {
    const cancel = !isLocalRequest(details.url);
    if (cancel) log.warn('security: blocked a request for remote content');
    callback({ cancel });
  });
};
