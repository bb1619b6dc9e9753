/**
 * The stylesheet inline in the page whose first screen the host rendered (main/rpc/first-screen-stylesheet.ts):
 * allowed by its own hash added to the policy's style-src, in place of the link, and never inline when
 * its text could close the style element.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  STYLESHEET_LINK,
  styleHashSource,
  withInlineStylesheet,
  withStyleSource,
} from '../../../main/rpc/first-screen-stylesheet';
import { RENDERER_CSP } from '../../../main/renderer-serving';

const PAGE = `<head>
    <meta
      http-equiv="Content-Security-Policy"
      content="default-src 'self'; style-src 'self' 'sha256-abc='; img-src 'self'"
    />
    ${STYLESHEET_LINK}
  </head>`;
const CSS = 'body{margin:0}';

describe('the stylesheet inline in a rendered page', () => {
  it('is allowed by the SHA-256 of its text, base64, as CSP writes it', () => {
    expect(styleHashSource(CSS)).toBe(`'sha256-${createHash('sha256').update(CSS).digest('base64')}'`);
  });

  it("is added to style-src alone, the policy's other directives unchanged", () => {
    const csp = withStyleSource(RENDERER_CSP, "'sha256-x='");
    expect(csp.split('; ').find((d) => d.startsWith('style-src'))).toMatch(
      /^style-src 'self' .* 'sha256-x='$/,
    );
    expect(csp.replace(" 'sha256-x='", '')).toBe(RENDERER_CSP);
    expect(withStyleSource("default-src 'self'", "'sha256-x='")).toBe("default-src 'self'");
  });

  it("replaces the link, and the page's meta policy allows it", () => {
    const { html, styleSource } = withInlineStylesheet(PAGE, CSS);
    expect(styleSource).toBe(styleHashSource(CSS));
    expect(html).toContain(`<style>${CSS}</style>`);
    expect(html).not.toContain('<link');
    expect(html).toContain(
      `content="default-src 'self'; style-src 'self' 'sha256-abc=' ${styleSource}; img-src 'self'"`,
    );
  });

  it('is not inline when there is no stylesheet, no link, or text that would close its element', () => {
    for (const [page, css] of [
      [PAGE, null],
      ['<head></head>', CSS],
      [PAGE, 'a{}</STYLE><script>alert(1)</script>'],
    ] as const)
      expect(withInlineStylesheet(page, css)).toEqual({ html: page, styleSource: null });
  });
});
