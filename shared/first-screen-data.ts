/**
 * What browser mode's bridge writes into the window's page for its first screen (issue 16): the answers
 * of the first screen's calls, so the window draws it without waiting for its WebSocket. The bridge
 * writes it (main/rpc/first-screen-data.ts) only into a page asked for with the launch token, as a JSON
 * data block (`<script type="application/json">`, never executed, so the page's `script-src 'self'`
 * holds); the window reads it once (renderer/src/lib/rpc/first-screen-data.ts) and asks as usual when
 * it is absent (a page without the token, the Electron window).
 */
import type { AppInfo } from './contract/app.contract';

/** The data block's element id. */
export const FIRST_SCREEN_DATA_ID = 'voicescope-first-screen';

/** Each first-screen call's answer by method (each takes no input), checked on the host against the contract. */
export interface FirstScreenData {
  readonly 'app.info': AppInfo;
}
