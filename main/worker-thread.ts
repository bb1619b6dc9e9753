/**
 * Starts a worker thread on a module that sits beside its caller: the TypeScript source (`<name>.ts`,
 * run through tsx, which the worker registers first because on Node 20 the parent thread's loader hooks
 * do not reach worker threads) or, in a bundle, the worker's own bundle (`<name>.cjs`, built beside the
 * bundle by scripts/build.mjs). Null when neither file is there or the thread cannot start: the caller
 * then does the work in its own thread.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const BOOTSTRAP = `
  const { workerData } = require('node:worker_threads');
  (async () => {
    if (workerData.tsxApi) (await import(workerData.tsxApi)).register();
    await import(workerData.url);
  })();`;

/** The worker's module beside `callerUrl`: its source, else its bundle; null when neither exists. */
export const workerModuleUrl = (callerUrl: string, name: string): string | null => {
  for (const file of [`./${name}.ts`, `./${name}.cjs`]) {
    const url = new URL(file, callerUrl);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  return null;
};

/** tsx's ESM API (require.resolve gives its CommonJS entry; the ESM one sits beside it). */
const tsxEsmApi = (callerUrl: string): string =>
  pathToFileURL(
    createRequire(callerUrl)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;

export const startWorkerBeside = (callerUrl: string, name: string): Worker | null => {
  try {
    const url = workerModuleUrl(callerUrl, name);
    if (url === null) return null;
    const tsxApi = url.endsWith('.ts') ? tsxEsmApi(callerUrl) : null;
    return new Worker(BOOTSTRAP, { eval: true, workerData: { url, tsxApi } });
  } catch {
    return null;
  }
};
