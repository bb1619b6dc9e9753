/**
 * The first screen's answers the bridge wrote into the page (browser mode, shared/first-screen-data.ts),
 * read once and the element removed; null when there is none (the Electron window, a page opened
 * without the token, a block that is not an object holding `app.info`). Like the first screen's
 * unchecked call (lib/rpc/client.ts), it is what the host's router answered, checked there against the
 * contract.
 */
import { FIRST_SCREEN_DATA_ID, type FirstScreenData } from '../../../../shared/first-screen-data';

/** The block's text as the window's data, or null when it is not that. */
export const parseFirstScreenData = (text: string | null): FirstScreenData | null => {
  try {
    const data = JSON.parse(text ?? '') as unknown;
    const info =
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['app.info'] : null;
    return typeof info === 'object' && info !== null ? (data as FirstScreenData) : null;
  } catch {
    return null;
  }
};

export const takeFirstScreenData = (): FirstScreenData | null => {
  const el = document.getElementById(FIRST_SCREEN_DATA_ID);
  if (!el || el.getAttribute('type') !== 'application/json') return null;
  el.remove();
  return parseFirstScreenData(el.textContent);
};
