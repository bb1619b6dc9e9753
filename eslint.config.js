// ESLint flat config. The house rules it guards (docs/architecture.md, CONTRIBUTING.md):
//  - layering: shared/ is pure TypeScript (zod only), the renderer never reaches main/, node: or electron,
//    only main/electron/ and preload/ import electron;
//  - SQL lives only in main/db/ (no-restricted-syntax on SQL-looking strings elsewhere in main/);
//  - inside main/, each folder imports only from the layers below its own (MAIN_LAYERS, below);
//  - no import cycles, no floating promises, exhaustive switches, the rules of hooks.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';

const SQL = String.raw`/^\s*(SELECT|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|VIEW|TRIGGER)|WITH\s+\w+\s+AS)\b/i`;
const noSql = [
  'error',
  { selector: `Literal[value=${SQL}]`, message: 'SQL lives only in main/db/ (a repository method).' },
  {
    selector: `TemplateElement[value.raw=${SQL}]`,
    message: 'SQL lives only in main/db/ (a repository method).',
  },
];

/**
 * The layers inside main/, from the top down: each entry of main/ (a folder or a top-level module) may
 * import only from the layers below its own, never from a layer above nor from another entry of its own
 * layer. docs/architecture.md draws the same order.
 */
export const MAIN_LAYERS = [
  ['electron', 'cli', 'node-host.ts'], // the shells: desktop app, command line, browser mode
  ['app-host.ts'], // everything behind the window, built once for both shells
  ['rpc'], // the router, the handlers (one file per contract namespace), the event bus, the bridge
  ['services'], // the StudyService, one part per contract namespace
  ['export', 'engine', 'privacy'], // the work the services order: exports, the queue runner, archives
  ['change', 'curation', 'sandbox', 'import'], // change statistics, curation acts, the sandbox, imports
  ['design'], // the study design's visit ledger
  ['db'], // the study database: repositories (every SQL statement), migrations
  ['acoustics', 'api', 'jobs', 'workspace', 'log.ts'], // computations, the API client, files on disk, the log
  ['audio'], // reading audio files
  [
    'file-modes.ts',
    'app-version.ts',
    'process-guard.ts',
    'renderer-serving.ts',
    'problem.ts',
    'wall-time.ts',
    'worker-thread.ts',
    'workstation-name.ts',
  ],
];

const unlisted = readdirSync(new URL('main', import.meta.url)).filter(
  (entry) => !MAIN_LAYERS.flat().includes(entry),
);
if (unlisted.length > 0)
  throw new Error(`eslint.config.js: put ${unlisted.map((e) => `main/${e}`).join(', ')} in MAIN_LAYERS.`);

/** For each entry of main/: every entry of its own layer and of the layers above is out of bounds. */
export const MAIN_LAYER_ZONES = MAIN_LAYERS.flatMap((layer, i) =>
  layer.map((entry) => ({
    target: `./main/${entry}`,
    from: MAIN_LAYERS.slice(0, i + 1)
      .flat()
      .filter((other) => other !== entry)
      .map((other) => `./main/${other}`),
    message: `main/${entry} imports only from the layers below its own (MAIN_LAYERS in eslint.config.js).`,
  })),
);

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.mjs',
      '**/*.cjs',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A Promise where a value is tested (`if (repoCall())`) is always true: the store is asynchronous.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', 'node:*', 'electron'],
              message: 'The window never reaches main/, Node or Electron.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', '**/main/**', '**/renderer/**'],
              message: 'shared/ is pure TypeScript.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only main/electron/ imports electron.' }] },
      ],
    },
  },
  { files: ['main/**/*.ts'], ignores: ['main/db/**'], rules: { 'no-restricted-syntax': noSql } },
  {
    files: ['main/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: MAIN_LAYER_ZONES }],
    },
  },
  {
    // Long functions become named stages: no function of the product over 150 lines, without exception.
    files: ['main/**/*.ts', 'shared/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests may reach into untyped corners (stand-ins, parsed JSON) and load modules inside vi.hoisted.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
);
