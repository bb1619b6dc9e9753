/**
 * One renderer, two transports: the preload bridge when Electron put one on `window`, otherwise the
 * browser-mode WebSocket on this page's own origin with the launch token from the address (kept for
 * this tab in sessionStorage, and removed from the visible address).
 */
import type { PreloadApi, Transport } from '../../../../shared/rpc';
import { createElectronTransport } from './electron-transport';
import { createWsTransport } from './ws-transport';

declare global {
  interface Window {
    voicescope?: PreloadApi;
  }
}

const TOKEN_KEY = 'voicescope.token';

/** This tab's launch token (browser mode), or null; for requests that carry it in a header. */
export const launchToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);

export type SelectedTransport =
  | { readonly kind: 'electron'; readonly transport: Transport }
  | {
      readonly kind: 'browser';
      readonly transport: ReturnType<typeof createWsTransport>;
      readonly token: string;
    }
  | { readonly kind: 'none'; readonly reason: string };

export const selectTransport = (): SelectedTransport => {
  if (window.voicescope) return { kind: 'electron', transport: createElectronTransport(window.voicescope) };
  const params = new URLSearchParams(location.search);
  const token = params.get('token') ?? sessionStorage.getItem(TOKEN_KEY);
  if (!token) return { kind: 'none', reason: 'This address has no access token.' };
  sessionStorage.setItem(TOKEN_KEY, token);
  if (params.has('token')) history.replaceState(null, '', `${location.pathname}${location.hash}`);
  const ws = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc?token=${encodeURIComponent(token)}`;
  return { kind: 'browser', transport: createWsTransport(ws), token };
};
