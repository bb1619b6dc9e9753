/**
 * The window's first screen, answered with its page: the bridge asks the router for
 * `app.info` exactly as a WebSocket call would (input and answer parsed against the contract) and writes
 * the answer into index.html as a JSON data block (shared/first-screen-data.ts). `<` is written as
 * `\u003c`, so no text in it can close its element or open another; U+2028 and U+2029 are escaped too.
 * A refusal or failure writes no block: the window then asks over its WebSocket as it would anyway.
 * With the first screen rendered into the page (main/rpc/first-screen-page.ts) the block holds every
 * answer the screen was rendered from.
 */
import { FIRST_SCREEN_DATA_ID, type FirstScreenData } from '../../shared/first-screen-data';
import type { Router } from './router';

/** JSON that is inert inside a `<script type="application/json">` element. */
export const jsonForScriptElement = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The data block holding `data`. */
export const dataBlock = (data: FirstScreenData): string =>
  `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${jsonForScriptElement(data)}</script>`;

/** The data block with `app.info` alone, or '' when it did not answer with a value. */
export const firstScreenDataBlock = async (router: Router): Promise<string> => {
  const info = await router.handle('app.info', {}, { via: 'websocket' });
  if (!info.ok) return '';
  return dataBlock({ 'app.info': info.value } as FirstScreenData);
};

/** index.html with the block placed before its first module script (so it is parsed when the entry runs). */
export const withFirstScreenData = (html: string, block: string): string => {
  if (block === '') return html;
  const at = html.indexOf('<script type="module"');
  return at < 0
    ? html.replace('</body>', `${block}</body>`)
    : `${html.slice(0, at)}${block}\n    ${html.slice(at)}`;
};
