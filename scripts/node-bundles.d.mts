// Types of scripts/node-bundles.mjs (plain JavaScript, run by scripts/build.mjs with node).
import type { BuildResult } from 'esbuild';
export function buildNodeBundles(
  entryPoints: Record<string, string>,
  outdir: string,
  external?: string[],
): Promise<BuildResult>;
