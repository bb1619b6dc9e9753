/**
 * The stylesheet written into the page whose first screen the host rendered (issue 16, round 7). Linked,
 * the stylesheet held that page's first paint: the browser asks for it only once its parser has passed
 * the page's Content-Security-Policy meta element (Chromium's preload scanner waits for it), so it left
 * ~150-300 ms after navigation and arrived 70-300 ms after the page was parsed; nothing is drawn before
 * it (a linked stylesheet in the head blocks rendering). Inline, the page is painted as soon as it is
 * parsed.
 *
 * The CSP stays strict: no 'unsafe-inline'. The style element is allowed by the SHA-256 of its text,
 * added to `style-src` in both the page's meta policy and the response's header (a browser enforces
 * both), so only that exact stylesheet, the build's own, can be inline in the page.
 */
import { createHash } from 'node:crypto';

/** The build's stylesheet, beside index.html, and its link there (renderer/index.html). */
export const STYLESHEET = 'app.css';
export const STYLESHEET_LINK = `<link rel="stylesheet" href="${STYLESHEET}" />`;

/** The CSP source allowing exactly `css` as a style element's text. */
export const styleHashSource = (css: string): string =>
  `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

/** `csp` with `source` added to its `style-src` directive (the policy as it was when it has none). */
export const withStyleSource = (csp: string, source: string): string =>
  csp.replace(
    /(^|;\s*)(style-src [^;]*)/,
    (_, before: string, directive: string) => `${before}${directive.trimEnd()} ${source}`,
  );

const META_CSP = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/;

export interface InlinedStylesheet {
  readonly html: string;
  /** The style element's CSP source for the response's header, or null when nothing was inlined. */
  readonly styleSource: string | null;
}

/**
 * `html` with its stylesheet link replaced by a style element holding `css`, and the meta policy
 * policy (when the page has one) allowing it. Unchanged (styleSource null) when there is no stylesheet
 * to inline, no link to replace, or text that could close the style element.
 */
export const withInlineStylesheet = (html: string, css: string | null): InlinedStylesheet => {
  if (css === null || /<\/style/i.test(css) || !html.includes(STYLESHEET_LINK))
    return { html, styleSource: null };
  const source = styleHashSource(css);
  return {
    html: html
      .replace(META_CSP, (_, open: string, policy: string, close: string) =>
        [open, withStyleSource(policy, source), close].join(''),
      )
      .replace(STYLESHEET_LINK, () => `<style>${css}</style>`),
    styleSource: source,
  };
};
