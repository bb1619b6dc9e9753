/**
 * The order of the layers inside main/ is a lint rule (MAIN_LAYERS in eslint.config.js): a module may
 * import from the layers below its own, and the linter refuses an import that runs back up or sideways.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const { MAIN_LAYERS, MAIN_LAYER_ZONES } = (await import(
  pathToFileURL(join(ROOT, 'eslint.config.js')).href
)) as {
  MAIN_LAYERS: readonly (readonly string[])[];
  MAIN_LAYER_ZONES: readonly object[];
};

/** The layer rule alone, as eslint.config.js sets it, over one module's text in place of its own. */
const layerErrors = async (file: string, source: string): Promise<string[]> => {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { 'import-x': importX },
        settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })] },
        rules: {
          'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: MAIN_LAYER_ZONES }],
        },
      },
    ],
  });
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, file) });
  return result!.messages.map((m) => m.message);
};

describe('the layers inside main/', () => {
  it('place every folder and top-level module of main/ exactly once', () => {
    const listed = MAIN_LAYERS.flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(readdirSync(join(ROOT, 'main')).sort());
  });

  it('let a repository import from below (the database connection)', async () => {
    expect(
      await layerErrors('main/db/repos/studies.repo.ts', "import type { Db } from '../open';\n"),
    ).toEqual([]);
    expect(
      await layerErrors('main/services/usage.service.ts', "import { problem } from '../problem';\n"),
    ).toEqual([]);
  });

  it('refuse a repository that imports a service, and a log that imports the router', async () => {
    const up = await layerErrors(
      'main/db/repos/studies.repo.ts',
      "import type { StudyService } from '../../services/study-service';\n",
    );
    expect(up).toHaveLength(1);
    expect(up[0]).toContain('main/db imports only from the layers below its own');
    expect(await layerErrors('main/log.ts', "import type { Router } from './rpc/router';\n")).toHaveLength(1);
  });

  it('refuse an import between two parts of the same layer (the engine and the export)', async () => {
    expect(
      await layerErrors('main/engine/progress.ts', "import { runExport } from '../export/run-export';\n"),
    ).toHaveLength(1);
  });
});
