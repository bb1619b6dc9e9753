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
/** A program that answers `--version` (ffmpeg: `-version`). */
const answers = (name) => () => runs(name, [name === 'ffmpeg' ? '-version' : '--version']);
const exists = (path) => () => existsSync(path);
const DEJAVU = '/usr/share/fonts/truetype/dejavu';

/** A tool: its name (as tests ask for it), Debian package, kind, why the tests need it, how to tell it is here. */
const tool = (name, pkg, kind, why, present) => ({ name, package: pkg, kind, why, present });

/**
 * `build`: needed to install the npm dependencies (better-sqlite3 is compiled with node-gyp); `window`:
 * the end-to-end tests; `reference`: a program the tests check the product's output against.
 */
export const TEST_TOOLS = [
  tool('python3', 'python3', 'build', 'node-gyp compiles better-sqlite3', answers(PYTHON)),
  tool('make', 'make', 'build', 'node-gyp compiles better-sqlite3', answers('make')),
  tool('g++', 'g++', 'build', 'node-gyp compiles better-sqlite3', answers('g++')),
  tool('chromium', 'chromium', 'window', 'the end-to-end tests drive Debian’s Chromium', exists(CHROMIUM)),
  tool('fonts', 'fonts-dejavu-core', 'window', 'the screenshots need a font', exists(DEJAVU)),
  tool('R', 'r-base-core', 'reference', 'exports are read back with R’s read.csv', answers('Rscript')),
  tool('pandas', 'python3-pandas', 'reference', 'exports are read back with pandas', python('pandas')),
  tool('praat', 'praat', 'reference', 'local measures are checked against Praat', answers('praat')),
  tool('ffmpeg', 'ffmpeg', 'reference', 'AAC and MP3 test files are encoded with it', answers('ffmpeg')),
  tool('pspp', 'pspp', 'reference', 'an export’s load.sps is run with GNU PSPP', answers('pspp')),
  tool('openpyxl', 'python3-openpyxl', 'reference', 'study.xlsx is read with pandas', python('openpyxl')),
  tool(
    'postgresql-15',
    'postgresql-15',
    'reference',
    'the store runs on a throwaway PostgreSQL 15 cluster (several connections, conflicts, TLS)',
    exists('/usr/lib/postgresql/15/bin/initdb'),
  ),
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
