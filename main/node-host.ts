/**
 * Browser mode: the workstation's main-process services under plain Node, with the renderer served
 * to a local browser over the WebSocket bridge (main/rpc/ws-bridge.ts). Used where no Electron binary
 * exists (`npm start` falls back to it) and by the end-to-end tests. Prints `BRIDGE_READY <url>`.
 *
 *   npx tsx main/node-host.ts [--home <dir>] [--port <n>] [--no-open] [--sandbox-scenario <name>]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { askedDatabase } from './services/open-study-service';
import { openAppHost } from './app-host';
import { classifyDbError } from './db/db-errors';
import { createLogger, logsDirOf, routeConsole } from './log';
import { guardProcess } from './process-guard';
import { createExportDownloads } from './rpc/export-downloads';
import { createMediaRoute } from './rpc/media-route';
import { warmUpBridge } from './rpc/bridge-warm-up';
import { loadFirstScreenRenderer } from './rpc/first-screen-page';
import { startBridge } from './rpc/ws-bridge';
import { SCENARIO_NAMES, type ScenarioName } from './sandbox/scenario';
import { defaultWorkspaceDir, keysDirOf } from './workspace/workspace';

/** The project's folder: the nearest one above this module with a package.json (main/, or out/host/ for the bundle). */
const projectRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
};
const ROOT = projectRoot();
const OWN_RENDERER_DIR = join(ROOT, 'out', 'renderer');
/** The built window. Benchmarks (with the test hooks on) may serve another build, e.g. an earlier commit's. */
export const RENDERER_DIR =
  process.env['VOICESCOPE_TEST_HOOKS'] === '1' && process.env['VOICESCOPE_TEST_RENDERER_DIR']
    ? resolve(process.env['VOICESCOPE_TEST_RENDERER_DIR'])
    : OWN_RENDERER_DIR;
/**
 * The first screen is rendered into the page from this checkout's renderer sources
 * (main/rpc/first-screen-page.ts): only into this checkout's build, whose window takes it over.
 */
const RENDER_FIRST_SCREEN = RENDERER_DIR === OWN_RENDERER_DIR;

const HELP = `Voicescope in browser mode: the workstation in your web browser, served on this computer only.

Options:
  --home <dir>               workspace folder (default $VOICESCOPE_HOME or ~/.voicescope)
  --database <address>       a study database on a PostgreSQL server (default $VOICESCOPE_DATABASE_URL),
                             postgres://user@server:5432/study?sslmode=verify-full&sslrootcert=<ca.crt>;
                             give the password once in the address, it is then kept in the key store
  --port <n>                 port on 127.0.0.1 (default: a free one)
  --no-open                  do not open the browser; just print the address
  --sandbox-scenario <name>  the built-in sandbox's behaviour for this run: ${SCENARIO_NAMES.join(', ')}
  -h, --help`;

const openBrowser = (url: string) => {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '""', url] : [url];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => console.log('Open the address above in your browser.'));
    child.unref();
  } catch {
    console.log('Open the address above in your browser.');
  }
};

const main = async () => {
  const { values: v } = parseArgs({
    options: {
      home: { type: 'string' },
      database: { type: 'string' },
      port: { type: 'string' },
      'no-open': { type: 'boolean' },
      'sandbox-scenario': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (v.help) {
    console.log(HELP);
    return;
  }
  const scenario = v['sandbox-scenario'];
  if (scenario !== undefined && !(SCENARIO_NAMES as readonly string[]).includes(scenario)) {
    console.error(`voicescope: --sandbox-scenario must be one of ${SCENARIO_NAMES.join(', ')}.`);
    process.exit(2);
  }
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    console.error(
      'voicescope: the window is not built (out/renderer is missing). Run `npm run build` or `npm start`.',
    );
    process.exit(1);
  }
  // React and the window's code, for the first screen rendered into the page, load while the host opens
  // its workspace (the bridge's warm-up then renders it once), not on the researcher's first page.
  if (RENDER_FIRST_SCREEN) void loadFirstScreenRenderer().catch(() => undefined);
  const workspaceDir = v.home ?? defaultWorkspaceDir();
  // Everything the services print goes through the one logger (redacted, and into the workspace's logs folder).
  const logger = createLogger({ dir: logsDirOf(workspaceDir) });
  routeConsole(logger);
  // Whatever a defect lets slip past the bridge's own handlers is logged, and the window keeps working.
  guardProcess(logger);
  const hosted = await openAppHost({
    workspaceDir,
    database: askedDatabase(v.database, process.env),
    mode: 'browser',
    logger,
    keyStorage: {
      kind: 'key-file',
      protectedByOs: false,
      notice: `In browser mode, API keys are kept in files that only your user account can read (${keysDirOf(workspaceDir)}); they are not encrypted. The desktop app keeps them in the operating system's keychain instead.`,
    },
    ...(scenario ? { sandboxScenario: scenario as ScenarioName } : {}),
    // Test hooks exist only when asked for (end-to-end tests): the sandbox's admin token, to inject faults.
    ...(process.env['VOICESCOPE_TEST_HOOKS'] === '1' && process.env['VOICESCOPE_TEST_SANDBOX_ADMIN_TOKEN']
      ? { sandboxAdminToken: process.env['VOICESCOPE_TEST_SANDBOX_ADMIN_TOKEN'] }
      : {}),
  });
  if (!hosted.ok) {
    console.error(`voicescope: the study database cannot be opened. ${hosted.error}`);
    process.exit(10);
  }
  const host = hosted.value;
  const downloads = createExportDownloads(host.service.workspace.dir);
  const media = createMediaRoute(host.service);
  const bridge = await startBridge({
    router: host.router,
    bus: host.bus,
    staticDir: RENDERER_DIR,
    routes: (path, req, res) => downloads.route(path, req, res) || media(path, req, res),
    renderFirstScreen: RENDER_FIRST_SCREEN,
    // A peer that breaks its own connection is no news (diagnostic mode shows it); a failed call is.
    onError: (what, e) =>
      what === 'call' || what === 'request handler'
        ? logger.error(`browser-mode bridge: ${what} failed`, e)
        : logger.debug(`browser-mode bridge: ${what}`, e),
    ...(v.port ? { port: Number(v.port) } : {}),
  });
  // The address holds the launch token: shown at the console only, never written to the log file.
  logger.announce(`Voicescope is running in browser mode (workspace ${workspaceDir}).`);
  logger.announce(
    `Open this address; it holds this launch's secret token, so keep it to yourself:\n  ${bridge.url}`,
  );
  logger.announce(`BRIDGE_READY ${bridge.url}`);
  logger.info(`browser mode started on ${bridge.origin}`);
  if (!v['no-open'] && !process.env['CI']) openBrowser(bridge.url);
  // The host's first page load, made by the host itself while the browser starts: the window's own
  // first load then finds Node's HTTP, WebSocket and router paths compiled.
  // (Its error is not logged: the addresses it used hold the launch token.)
  void warmUpBridge(bridge, () => logger.debug('browser-mode bridge: the warm-up did not complete'));
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await bridge.close();
    await host.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
};

void main().catch((e: unknown) => {
  // The study database that cannot be opened (read-only drive, damaged, from a newer Voicescope) is told
  // in the researcher's words; anything else by its message.
  const db = classifyDbError(e);
  console.error(
    db
      ? `voicescope: ${db.message}\n${db.action}`
      : `voicescope: ${e instanceof Error ? e.message : String(e)}`,
  );
  process.exit(1);
});
