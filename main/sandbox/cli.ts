/**
 * `npx tsx main/sandbox/cli.ts [options]`: runs the sandbox service until SIGINT or SIGTERM.
 * Prints its base URL, the API keys of its organisations and the admin token (docs/sandbox.md).
 * Without a configuration its one organisation's key is random per start, or the one given.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_CONFIG, SandboxConfig } from './config';
import { LOOSE, MISBEHAVIOURS, parseMisbehaviourList } from './misbehave';
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
  --api-key <key>     The API key of the default organisation (default: a new random key, printed
                      on start; with --state, the key the state file holds)
  --misbehave <list>  Answer like a looser real service: "loose" (everything) or a comma-separated
                      list of ${MISBEHAVIOURS.join(', ')}
  --misbehave-seed <n>  Seed of the misbehaving answers (default 1): the same files give the same odd answers
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
      'api-key': { type: 'string' },
      misbehave: { type: 'string' },
      'misbehave-seed': { type: 'string' },
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

  const apiKey = v['api-key'];
  if (apiKey !== undefined && !/^[\x21-\x7e]{8,200}$/.test(apiKey))
    return fail('--api-key must be 8 to 200 printable characters without spaces.');
  // Without a configuration: one organisation, with the key given or a new random one (never a fixed string).
  let config: SandboxConfig = {
    ...DEFAULT_CONFIG,
    organisations: DEFAULT_CONFIG.organisations.map((o) => ({
      ...o,
      apiKeys: [apiKey ?? `vs-sandbox-${randomBytes(24).toString('base64url')}`],
    })),
  };
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
  if (v.misbehave !== undefined || v['misbehave-seed'] !== undefined) {
    const list = parseMisbehaviourList(v.misbehave ?? LOOSE);
    if (!list.ok)
      return fail(
        `unknown misbehaviour ${list.unknown.join(', ')}; use loose or ${MISBEHAVIOURS.join(', ')}.`,
      );
    const seed = v['misbehave-seed'] === undefined ? undefined : Number(v['misbehave-seed']);
    if (seed !== undefined && !Number.isInteger(seed))
      return fail('--misbehave-seed must be a whole number.');
    const base = typeof config.scenario === 'string' ? { preset: config.scenario } : config.scenario;
    config = {
      ...config,
      scenario: {
        ...base,
        misbehave: { ...base.misbehave, enabled: list.names, ...(seed !== undefined ? { seed } : {}) },
      },
    };
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

  // A key given on the command line opens the default organisation even when a state file holds another.
  const first = DEFAULT_CONFIG.organisations[0]!;
  const held = v.config === undefined && apiKey !== undefined ? sandbox.getOrganisation(first.id) : null;
  if (held && !held.apiKeys.includes(apiKey!)) sandbox.upsertOrganisation({ ...held, apiKeys: [apiKey!] });

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
  if (scenario.misbehave.enabled.length)
    console.log(
      `Misbehaving like a looser real service (seed ${scenario.misbehave.seed}): ${scenario.misbehave.enabled.join(', ')}`,
    );
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
