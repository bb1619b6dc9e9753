/**
 * `npx tsx main/sandbox/cli.ts [options]`: runs the sandbox service until SIGINT or SIGTERM.
 * Prints its base URL, the API keys of its organisations and the admin token (docs/sandbox.md).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_CONFIG, SandboxConfig } from './config';
import { SCENARIO_NAMES, ScenarioName } from './scenario';
import { startSandbox } from './server';

const HELP = `Voicescope sandbox: a local, SIMULATED Speech Analysis service (both API versions, v1.3 and v1.2).
Every value it returns is simulated and marked as such.

Usage: npx tsx main/sandbox/cli.ts [options]

Options:
  --port <n>          Port on 127.0.0.1 (default 4010; 0 picks a free one)
  --config <file>     Configuration file (JSON: organisations, creditsPerUpload, scenario). Default: one
                      active demo organisation with the demo key.
  --state <file>      Keep accounts, recordings and credits in this JSON file across restarts.
  --scenario <name>   ${SCENARIO_NAMES.join(' | ')} (overrides the configuration's scenario)
  --admin-token <t>   Token for the /_sandbox/ admin routes (default: random, printed on start)
  -h, --help          This text

See docs/sandbox.md.`;

const fail = (message: string): never => {
  console.error(`voicescope-sandbox: ${message}`);
  process.exit(2);
};

const parse = () =>
  parseArgs({
    options: {
      port: { type: 'string' },
      config: { type: 'string' },
      state: { type: 'string' },
      scenario: { type: 'string' },
      'admin-token': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });

const main = async (): Promise<void> => {
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
  } catch (e) {
    return fail(`${e instanceof Error ? e.message : String(e)}\n\n${HELP}`);
  }
  const v = args.values;
  if (v.help) {
    console.log(HELP);
    return;
  }
  const port = v.port === undefined ? 4010 : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return fail(`--port must be a port number, not "${v.port}".`);

  let config = DEFAULT_CONFIG;
  if (v.config !== undefined) {
    const file = resolve(v.config);
    try {
      config = SandboxConfig.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (e) {
      const why = e instanceof z.ZodError ? z.prettifyError(e) : e instanceof Error ? e.message : String(e);
      return fail(`the configuration ${file} is not usable:\n${why}`);
    }
  }
  if (v.scenario !== undefined) {
    const s = ScenarioName.safeParse(v.scenario);
    if (!s.success) return fail(`unknown scenario "${v.scenario}"; use one of ${SCENARIO_NAMES.join(', ')}.`);
    config = { ...config, scenario: s.data };
  }

  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      port,
      config,
      ...(v.state !== undefined ? { stateFile: resolve(v.state) } : {}),
      ...(v['admin-token'] !== undefined ? { adminToken: v['admin-token'] } : {}),
    });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return fail(
      code === 'EADDRINUSE'
        ? `port ${port} is in use; choose another with --port.`
        : e instanceof Error
          ? e.message
          : String(e),
    );
  }

  const scenario = sandbox.scenario();
  console.log(
    'Voicescope sandbox: SIMULATED Speech Analysis service (every result is simulated and marked as such).',
  );
  console.log(`Base URL: ${sandbox.url}`);
  console.log(`Versions: ${sandbox.url}/v1.3 and ${sandbox.url}/v1.2`);
  for (const org of sandbox.listOrganisations()) {
    for (const key of org.apiKeys)
      console.log(`API key: ${key}  (organisation "${org.name}", ${org.id}, ${org.access})`);
  }
  console.log(
    `Admin token: ${sandbox.adminToken}  (header X-Sandbox-Admin, routes under ${sandbox.url}/_sandbox/)`,
  );
  console.log(`Scenario: ${scenario.name}`);
  if (v.state !== undefined) console.log(`State file: ${resolve(v.state)}`);
  console.log('Press Ctrl+C to stop.');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`Stopping (${signal})…`);
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

await main();
