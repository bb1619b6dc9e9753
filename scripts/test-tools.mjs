// The Debian packages the tests need, written once: `npm test` (scripts/test-setup.mjs) and CI (.ci/run)
// install from this list, and the tests that run a reference tool ask it whether the tool is here
// (test/support/reference-tools.ts). Plain Node with no dependencies: it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Python, whatever `python3` a developer has first on their PATH (the packages are Debian's). */
export const PYTHON = '/usr/bin/python3';
/** Debian's Chromium: the end-to-end tests drive it through Playwright (playwright.config.ts). */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const runs = (command, args) => {
  const r = spawnSync(command, args, { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
};
const python = (module) => () => runs(PYTHON, ['-c', `import ${module}`]);
const command = (name, args) => () => runs(name, args);

/**
 * Each tool: its name (what the tests ask for), the Debian package that brings it, why the tests need
 * it, and how to tell it is here. `build`: needed to install the npm dependencies (better-sqlite3 is
 * compiled with node-gyp); `reference`: a program the tests check the product's output against.
 */
export const TEST_TOOLS = [
  {
    name: 'python3',
    package: 'python3',
    kind: 'build',
    why: 'node-gyp compiles better-sqlite3',
    present: command(PYTHON, ['--version']),
  },
  {
    name: 'make',
    package: 'make',
    kind: 'build',
    why: 'node-gyp compiles better-sqlite3',
    present: command('make', ['--version']),
  },
  {
    name: 'g++',
    package: 'g++',
    kind: 'build',
    why: 'node-gyp compiles better-sqlite3',
    present: command('g++', ['--version']),
  },
  {
    name: 'chromium',
    package: 'chromium',
    kind: 'window',
    why: 'the end-to-end tests drive Debian’s Chromium',
    present: () => existsSync(CHROMIUM),
  },
  {
    name: 'fonts',
    package: 'fonts-dejavu-core',
    kind: 'window',
    why: 'the window’s screenshots and text measures need a font',
    present: () => existsSync('/usr/share/fonts/truetype/dejavu'),
  },
  {
    name: 'R',
    package: 'r-base-core',
    kind: 'reference',
    why: 'exports are loaded back with R’s read.csv',
    present: command('Rscript', ['-e', 'invisible(0)']),
  },
  {
    name: 'pandas',
    package: 'python3-pandas',
    kind: 'reference',
    why: 'exports are loaded back with pandas',
    present: python('pandas'),
  },
  {
    name: 'praat',
    package: 'praat',
    kind: 'reference',
    why: 'the local acoustic measures are checked against Praat',
    present: command('praat', ['--version']),
  },
  {
    name: 'ffmpeg',
    package: 'ffmpeg',
    kind: 'reference',
    why: 'real AAC (M4A) and MP3 files are encoded with it',
    present: command('ffmpeg', ['-version']),
  },
  {
    name: 'pspp',
    package: 'pspp',
    kind: 'reference',
    why: 'the SPSS syntax of an export (load.sps) is run with GNU PSPP',
    present: command('pspp', ['--version']),
  },
  {
    name: 'openpyxl',
    package: 'python3-openpyxl',
    kind: 'reference',
    why: 'the Excel workbook of an export is read back with pandas',
    present: python('openpyxl'),
  },
];

/** The tools of TEST_TOOLS that are not here. */
export const missingTools = (tools = TEST_TOOLS) => tools.filter((t) => !t.present());

/** The one command that installs the given tools. */
export const installCommand = (tools) =>
  `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${[...new Set(tools.map((t) => t.package))].join(' ')}`;

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const hasAptGet = () => runs('apt-get', ['--version']);

/**
 * Installs what is missing, as root with apt-get; otherwise says what is missing and the one command
 * that installs it. Returns true when everything is here afterwards.
 */
export const ensureTestTools = (tools = TEST_TOOLS, log = console.log) => {
  const missing = missingTools(tools);
  if (missing.length === 0) return true;
  const names = missing.map((t) => t.package);
  if (isRoot() && hasAptGet()) {
    log(`Installing from Debian: ${names.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install =
      update.status === 0 &&
      spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env,
      }).status === 0;
    const still = install ? missingTools(missing) : missing;
    if (still.length === 0) return true;
    log(`apt-get could not install: ${still.map((t) => t.package).join(' ')}`);
    return false;
  }
  log('The tests need these Debian packages, which are not installed:');
  for (const t of missing) log(`  ${t.package.padEnd(18)} ${t.why}`);
  log(`Install them with:\n  ${installCommand(missing)}`);
  return false;
};
