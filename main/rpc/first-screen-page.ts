/**
 * The window's page as browser mode's bridge serves it with the launch token: the first
 * screen rendered into its root (renderer/src/ssr/first-screen.tsx, every call it makes answered by the
 * router exactly as a WebSocket call would be) and the answers it was rendered from in a JSON data block
 * (main/rpc/first-screen-data.ts), so the heading and the screen are in the page and the window takes
 * them over. When the screen cannot be rendered (a call refused or failed, a render that throws, a page
 * without an empty root) the page carries `app.info` alone, as before, and the window draws the screen.
 *
 * The renderer's code and React are imported once, on the first page (the bridge's warm-up asks for it
 * as the host starts: main/rpc/bridge-warm-up.ts), never again; a render then takes a few milliseconds,
 * reported with the page in a `Server-Timing` header (`ssr;dur=…`). The page rendered for one request is
 * kept and served again while every call it was drawn from answers the same (`desc="prepared"`), so the
 * render is off the request's path.
 */
import { performance } from 'node:perf_hooks';
import { FIRST_SCREEN_ATTRIBUTE } from '../../shared/first-screen-data';
import type { Ask, FirstScreen } from '../../renderer/src/ssr/first-screen';
import { dataBlock, firstScreenDataBlock, withFirstScreenData } from './first-screen-data';
import type { Router } from './router';

type Renderer = (ask: Ask) => Promise<FirstScreen | null>;
let renderer: Promise<Renderer> | null = null;

/** The renderer's server entry, imported once (React, the window's components and the first screens' code). */
export const loadFirstScreenRenderer = (): Promise<Renderer> =>
  (renderer ??= import('../../renderer/src/ssr/first-screen').then((m) => m.renderFirstScreen));

/** The root element as built, which the rendered screen fills. */
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The build announces the first screen's scripts (`<link rel="modulepreload">`, scripts/build.mjs) so
 * that a window drawing its screen itself has them at once. A page with the screen already in it needs
 * the stylesheet for its first paint, not the scripts: announced, the browser fetched and compiled all
 * 19 before painting (first heading 680 ms against 495 without them, median of five fresh contexts,
 * `npx tsx test/bench/ui.bench.ts first-screen`), while the window became interactive no later without
 * them (1,071 against 1,111 ms). So the rendered page drops them; the entry asks for what it needs.
 */
export const withoutScriptPreloads = (html: string): string =>
  html.replace(/^[ \t]*<link rel="modulepreload"[^>]*>\r?\n?/gm, '');

/**
 * The page's stylesheets as a `Link` header (`<app.css>; rel=preload; as=style`): Chromium reads it as
 * the document commits and asks for the stylesheet then, not when its parser reaches the `<link>`
 * element (in a fresh browser context under load the parser ran 100-600 ms after the response had
 * arrived), so the stylesheet the first paint waits for is asked for sooner. Same URL, same request
 * mode: the element then takes the preloaded answer, nothing is fetched twice.
 */
export const stylesheetPreloads = (html: string): string | null => {
  const hrefs = [...html.matchAll(/<link rel="stylesheet" href="([^"<>\s,;]+)"/g)].map((m) => m[1]!);
  return hrefs.length ? hrefs.map((h) => `<${h}>; rel=preload; as=style`).join(', ') : null;
};

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface FirstScreenPage {
  readonly html: string;
  /** Milliseconds spent producing the screen (rendering it, or checking a prepared one), or null when none. */
  readonly renderMs: number | null;
  /** Whether the screen is one rendered before this request whose answers still hold (not rendered again). */
  readonly prepared: boolean;
}

/** A rendered page kept for the next request: the page as built it was made from, the screen's answers, the page. */
interface Prepared {
  readonly built: string;
  readonly data: FirstScreen['data'];
  readonly html: string;
}
/** Per router (a host has one; tests make several): the last page rendered. */
const preparedPages = new WeakMap<Router, Prepared>();

const via = { via: 'websocket' } as const;
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether every call the prepared screen was drawn from answers the same now (same answers, same
 * screen: the render reads nothing else). The router's calls cost a fraction of a render: no React.
 */
const stillHolds = async (router: Router, data: FirstScreen['data']): Promise<boolean> => {
  const calls = [{ method: 'app.info', input: {}, value: data['app.info'] }, ...(data.answers ?? [])];
  const now = await Promise.all(calls.map((c) => router.handle(c.method, c.input, via)));
  return now.every((r, i) => r.ok && sameValue(r.value, calls[i]!.value));
};

/**
 * The page with its first screen. A screen rendered for an earlier request is served again when every
 * answer it was drawn from still holds (checked on every request); otherwise it is rendered now and kept
 * for the next.
 */
export const firstScreenPage = async (
  router: Router,
  html: string,
  noted: (e: unknown) => void = () => {},
): Promise<FirstScreenPage> => {
  if (html.includes(EMPTY_ROOT)) {
    const started = performance.now();
    try {
      const kept = preparedPages.get(router);
      if (kept && kept.built === html && (await stillHolds(router, kept.data)))
        return { html: kept.html, renderMs: performance.now() - started, prepared: true };
      const render = await loadFirstScreenRenderer();
      const ask = ((method: string, input: unknown) => router.handle(method, input, via)) as unknown as Ask;
      const screen = await render(ask);
      if (screen) {
        const root = `<div id="root" ${FIRST_SCREEN_ATTRIBUTE}="${escapeAttribute(screen.data.rendered)}">${screen.html}</div>`;
        const page = withFirstScreenData(
          withoutScriptPreloads(html).replace(EMPTY_ROOT, () => root),
          dataBlock(screen.data),
        );
        preparedPages.set(router, { built: html, data: screen.data, html: page });
        return { html: page, renderMs: performance.now() - started, prepared: false };
      }
    } catch (e) {
      noted(e);
    }
  }
  preparedPages.delete(router);
  const block = await firstScreenDataBlock(router).catch(() => '');
  return { html: withFirstScreenData(html, block), renderMs: null, prepared: false };
};
