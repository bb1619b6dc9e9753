/**
 * The layering rules, checked on the source text so they cannot drift: only the Electron shell and
 * the preload script may import `electron`; `shared/` is pure TypeScript (zod and itself only); the
 * main process never imports the renderer, nor the renderer the main process or Node.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

const sources = (dir: string): string[] => {
  const abs = join(ROOT, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const p = join(abs, e);
    if (statSync(p).isDirectory()) return sources(relative(ROOT, p));
    return /\.(ts|tsx|mts)$/.test(e) ? [relative(ROOT, p)] : [];
  });
};

const importsOf = (file: string): string[] =>
  [
    ...readFileSync(join(ROOT, file), 'utf8').matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"\n;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => (m[1] ?? m[2])!);

const ELECTRON_ALLOWED = /^(main\/electron\/|preload\/)/;

describe('layering', () => {
  it('finds the sources it checks', () => {
    expect(sources('shared').length).toBeGreaterThan(5);
    expect(sources('main').length).toBeGreaterThan(3);
  });

  it('only the Electron shell and the preload script import electron', () => {
    const offenders = [
      ...sources('main'),
      ...sources('shared'),
      ...sources('renderer'),
      ...sources('test'),
    ].filter(
      (f) =>
        !ELECTRON_ALLOWED.test(f) && importsOf(f).some((i) => i === 'electron' || i.startsWith('electron/')),
    );
    expect(offenders).toEqual([]);
  });

  it('shared/ imports only zod and other shared/ modules', () => {
    const offenders = sources('shared').flatMap((f) =>
      importsOf(f)
        .filter(
          (i) =>
            i !== 'zod' &&
            !(
              i.startsWith('.') &&
              !relative(ROOT, join(ROOT, f, '..', i)).startsWith('..') &&
              relative(ROOT, join(ROOT, f, '..', i)).startsWith('shared')
            ),
        )
        .map((i) => `${f} → ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it('shared/ uses no Node or browser globals', () => {
    const offenders = sources('shared').filter((f) =>
      /\b(Buffer|process|window|document|require)\b[.(]/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('main/ imports the renderer only where the bridge renders the first screen, and the renderer never imports main/ or node:', () => {
    const up = (f: string, i: string) => relative(ROOT, join(ROOT, f, '..', i));
    // The one way in: browser mode's bridge renders the first screen into the page with the renderer's
    // own server entry (renderer/src/ssr/first-screen.tsx, pure: no node:, no DOM; docs/ui.md).
    const SERVER_RENDER = 'main/rpc/first-screen-page.ts → renderer/src/ssr/first-screen';
    expect(
      sources('main').flatMap((f) =>
        importsOf(f)
          .filter((i) => i.startsWith('.') && up(f, i).startsWith('renderer'))
          .map((i) => `${f} → ${up(f, i)}`)
          .filter((edge) => edge !== SERVER_RENDER),
      ),
    ).toEqual([]);
    expect(
      sources('renderer').flatMap((f) =>
        importsOf(f).filter(
          (i) => i.startsWith('node:') || (i.startsWith('.') && up(f, i).startsWith('main')),
        ),
      ),
    ).toEqual([]);
  });
});
