/**
 * What browser mode's bridge writes into the window's page for its first screen: the answers
 * of the first screen's calls, so the window draws it without waiting for its WebSocket, and, when the
 * host rendered the first screen into the page (renderer/src/ssr/first-screen.tsx), which screen that
 * is and every other call it made with its answer, so the window's first render is the page's and React
 * takes it over (hydration) instead of drawing it again. The bridge writes it (main/rpc/first-screen-data.ts)
 * only into a page asked for with the launch token, as a JSON data block (`<script type="application/json">`,
 * never executed, so the page's `script-src 'self'` holds); the window reads it once
 * (renderer/src/lib/rpc/first-screen-data.ts) and asks as usual when it is absent (a page without the
 * token, the Electron window).
 */
import type { AppInfo } from './contract/app.contract';
import type { Method } from './contract';

/** The data block's element id. */
export const FIRST_SCREEN_DATA_ID = 'voicescope-first-screen';

/** The root element's attribute naming the screen the host rendered into it (its path, as `rendered`). */
export const FIRST_SCREEN_ATTRIBUTE = 'data-screen';

/** One call the rendered first screen made, and the router's answer (checked there against the contract). */
export interface FirstScreenAnswer {
  readonly method: Method;
  readonly input: unknown;
  readonly value: unknown;
}

/** Each first-screen call's answer, checked on the host against the contract. */
export interface FirstScreenData {
  readonly 'app.info': AppInfo;
  /**
   * The screen (a path of renderer/src/app/paths.ts: Home's destination, set-up or the studies) whose
   * HTML the page's root holds; absent when the page holds no rendered screen.
   */
  readonly rendered?: string;
  /** The rendered screen's other calls (`app.info` aside), answered as the router answered them. */
  readonly answers?: readonly FirstScreenAnswer[];
}
