/**
 * A plain `npm ci` or `npm install` downloads nothing at install: the project's .npmrc holds the settings
 * npm hands to install scripts as npm_config_*, and onnxruntime-node's install step, given them, skips
 * the GPU libraries it would otherwise fetch from api.nuget.org (the CPU libraries ship in the package).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The value npm hands an install script for a setting, read as npm itself reads the project's config. */
const projectSetting = (name: string): string =>
  spawnSync('npm', ['config', 'get', name, '--location=project'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: '', npm_config_onnxruntime_node_install: '' },
  }).stdout.trim();

describe('installing without network', () => {
  it("onnxruntime-node's install step is told to skip its download", () => {
    const value = projectSetting('onnxruntime-node-install');
    expect(value).toBe('skip');
    // The install step's own reading of that setting (its documented flag parser): false means skip.
    const { parseInstallFlag } = createRequire(join(ROOT, 'package.json'))(
      'onnxruntime-node/script/install-utils.js',
    ) as { parseInstallFlag: () => unknown };
    const saved = { ...process.env };
    process.env.ONNXRUNTIME_NODE_INSTALL = ''; // the variable npm start and .ci/run set: not relied on here
    process.env.npm_config_onnxruntime_node_install = value;
    try {
      expect(parseInstallFlag()).toBe(false);
    } finally {
      process.env = saved;
    }
  });
});
