/**
 * The first screen's answers the bridge wrote into the page (browser mode, shared/first-screen-data.ts),
 * read once and the element removed; null when there is none (the Electron window, a page opened
 * without the token, a block that is not an object holding `app.info`). Like the first screen's
 * unchecked call (lib/rpc/client.ts), it is what the host's router answered, checked there against the
 * contract.
 *
 * When the host also rendered the first screen into the page (ssr/first-screen.tsx), the root element
 * names it (FIRST_SCREEN_ATTRIBUTE) and the block holds its other answers: the window takes the page
 * over when the address still leads there (`takesOver`), and otherwise clears it at once and draws the
 * screen the address names.
 */
import {
  FIRST_SCREEN_ATTRIBUTE,
  FIRST_SCREEN_DATA_ID,
  type FirstScreenAnswer,
  type FirstScreenData,
} from '../../../../shared/first-screen-data';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The block's text as the window's data, or null when it is not that. */
export const parseFirstScreenData = (text: string | null): FirstScreenData | null => {
  try {
    const data = JSON.parse(text ?? '') as unknown;
    if (!isObject(data) || !isObject(data['app.info'])) return null;
    const answers = Array.isArray(data.answers)
      ? (data.answers as unknown[]).filter(
          (a): a is FirstScreenAnswer => isObject(a) && typeof a.method === 'string' && 'value' in a,
        )
      : [];
    return {
      'app.info': data['app.info'] as FirstScreenData['app.info'],
      ...(typeof data.rendered === 'string' ? { rendered: data.rendered } : {}),
      ...(answers.length > 0 ? { answers } : {}),
    };
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

/** Whether an address's hash leads to the rendered screen: Home (no hash, `#`, `#/`, where it leads) or the screen itself. */
export const hashLeadsTo = (hash: string, screen: string): boolean =>
  hash === '' || hash === '#' || hash === '#/' || hash === `#${screen}`;

/**
 * The screen the host rendered into the root, when the address leads to it (the window takes it over);
 * a rendered screen the address does not lead to is cleared at once (a reload on another screen), and
 * null is returned.
 */
export const renderedScreenToTakeOver = (root: HTMLElement): string | null => {
  const screen = root.getAttribute(FIRST_SCREEN_ATTRIBUTE);
  if (screen === null) return null;
  if (hashLeadsTo(location.hash, screen) && root.hasChildNodes()) return screen;
  root.removeAttribute(FIRST_SCREEN_ATTRIBUTE);
  root.replaceChildren();
  return null;
};
