/**
 * The waveform's style element and the window's Content Security Policy: wavesurfer.js writes one
 * `<style>` into its shadow root, allowed by hash (main/renderer-serving.ts). Recomputed here from the
 * installed package, so an upgrade that changes it is caught before the waveform loses its layout.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, WAVEFORM_STYLE_HASH } from '../../../main/renderer-serving';
import { WAVEFORM_HEIGHT_PX } from '../../../shared/media';

const require = createRequire(import.meta.url);

/** The text of the style element wavesurfer writes for a waveform of `height` pixels. */
const waveformStyle = (height: number): string => {
  const src = readFileSync(join(dirname(require.resolve('wavesurfer.js')), 'wavesurfer.esm.js'), 'utf8');
  const open = src.indexOf('<style', src.indexOf('initHtml(){'));
  const from = src.indexOf('}>', open) + 2;
  const to = src.indexOf('</style>', from);
  return src
    .slice(from, to)
    .replace(/\\n/g, '\n')
    .replace(/\$\{this\.getHeight\([^}]*\)\}/, String(height));
};

describe('the waveform under the Content Security Policy', () => {
  it("allows wavesurfer's one style element by its hash, and no other inline style", () => {
    const css = waveformStyle(WAVEFORM_HEIGHT_PX);
    expect(css).toContain(':host .scroll');
    expect(css).not.toContain('${');
    const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    expect(WAVEFORM_STYLE_HASH).toBe(hash);
    const styleSrc = RENDERER_CSP.split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('style-src'));
    expect(styleSrc).toBe(`style-src 'self' ${hash}`);
    expect(RENDERER_CSP).not.toContain('unsafe-inline');
    expect(RENDERER_CSP).not.toContain('blob:');
    // The page's own policy (a meta element, for any host that would serve it without the header) agrees.
    const html = readFileSync(join(import.meta.dirname, '../../../renderer/index.html'), 'utf8');
    expect(html).toContain(`style-src 'self' ${hash};`);
  });
});
