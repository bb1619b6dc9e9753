/**
 * Packaging, checked here because our machines cannot download Electron to build installers: the
 * electron-builder configuration is valid for electron-builder's own schema, sets every Electron fuse
 * explicitly (and knows every fuse this Electron has), builds the four installers, rebuilds the native
 * module for Electron and packages exactly what the built app loads.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const config = YAML.parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  main?: string;
};

let out: string;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'vs-pack-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--electron', '--out', out], {
    stdio: 'pipe',
  });
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('electron-builder.yml', () => {
  it('is valid for electron-builder itself (its schema, checked offline)', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(c: unknown, l: unknown): Promise<void>;
    };
    await expect(validateConfiguration(config, { isEnabled: false, add() {} })).resolves.toBeUndefined();
  });

  it('sets every fuse explicitly: no running as Node, no NODE_OPTIONS, no inspector, app only from an integrity-checked asar', () => {
    expect(config['electronFuses']).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('covers every fuse this Electron knows (a new fuse in an upgrade fails here until it is decided)', () => {
    const { FuseV1Options } = require('@electron/fuses') as {
      FuseV1Options: Record<string, number | string>;
    };
    const names = Object.keys(FuseV1Options)
      .filter((k) => Number.isNaN(Number(k)))
      .map((k) => k[0]!.toLowerCase() + k.slice(1));
    expect(names.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(config['electronFuses']).sort()).toEqual(names.sort());
  });

  it('builds AppImage and deb for Linux, NSIS for Windows, dmg for macOS', () => {
    expect(config['linux'].target).toEqual(['AppImage', 'deb']);
    expect(config['win'].target).toEqual(['nsis']);
    expect(config['mac'].target).toEqual(['dmg']);
    expect(config['mac'].hardenedRuntime).toBe(true);
    expect(config['deb'].depends).toContain('libsecret-1-0');
  });

  it('rebuilds better-sqlite3 for Electron and unpacks native modules from the asar', () => {
    expect(config['npmRebuild']).toBe(true);
    expect(config['asar']).toBe(true);
    expect(config['asarUnpack']).toContain('**/*.node');
    expect(pkg.dependencies['better-sqlite3']).toBeDefined();
    expect(pkg.devDependencies['electron']).toMatch(/^\^?45\./);
    expect(pkg.dependencies['electron']).toBeUndefined();
  });

  it('has no auto-update (the installed app downloads nothing)', () => {
    expect(config['publish']).toBeNull();
  });

  it('packages what the build produces, with the entry the build writes', () => {
    expect(config['extraMetadata'].main).toBe('out/main/main.cjs');
    expect(config['files']).toEqual(
      expect.arrayContaining(['out/main/**/*', 'out/preload/**/*', 'out/renderer/**/*', 'package.json']),
    );
    for (const f of ['main/main.cjs', 'preload/preload.cjs', 'renderer/index.html', 'renderer/app.js'])
      expect(existsSync(join(out, f)), f).toBe(true);
  });

  it('the main bundle needs only electron, better-sqlite3 and Node built-ins at run time; the preload only electron', () => {
    const required = (file: string) => [
      ...new Set(
        [...readFileSync(join(out, file), 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!),
      ),
    ];
    const builtin = (m: string) => m.startsWith('node:') || builtinModules.includes(m);
    expect(
      required('main/main.cjs')
        .filter((m) => !builtin(m))
        .sort(),
    ).toEqual(['better-sqlite3', 'electron']);
    expect(required('preload/preload.cjs')).toEqual(['electron']);
  });
});

describe('README', () => {
  it('says how to build the installers', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Building installers'));
    expect(section).toMatch(/npx electron-builder --linux/);
    expect(section).toMatch(/--win/);
    expect(section).toMatch(/--mac/);
    expect(section).toMatch(/build\.mjs --electron/);
  });
});
