/**
 * The built-in sandbox: the simulated service started inside the workstation, so a researcher can
 * try the whole workflow (or train staff) without credits or network. Its accounts, recordings and
 * credits live in a state file in the workspace, so results stay retrievable across launches; it
 * listens on a new loopback port each launch and its profiles are moved there. Every result it gives
 * is marked simulated, and so is everything the workstation shows or exports from it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_API_KEY } from '../sandbox/config';
import { SCENARIO_NAMES, type ScenarioName } from '../sandbox/scenario';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { Db } from '../db/open';
import { readSetting, writeSetting } from '../db/repos/settings.repo';

export const BUILTIN_PROFILE_KEY = 'builtin_sandbox_profiles';
const SCENARIO_KEY = 'builtin_sandbox_scenario';

export interface BuiltinSandboxState {
  readonly running: boolean;
  readonly url: string | null;
  readonly scenario: ScenarioName | null;
}

export interface BuiltinSandbox {
  /** Starts it if needed; resolves with its base URL. */
  ensure(): Promise<string>;
  state(): BuiltinSandboxState;
  setScenario(name: ScenarioName): BuiltinSandboxState;
  /** Profile ids that point at the built-in sandbox. */
  profileIds(): number[];
  adopt(profileId: number): void;
  readonly apiKey: string;
  close(): Promise<void>;
}

export const createBuiltinSandbox = (
  db: Db,
  workspaceDir: string,
  opts: { scenario?: ScenarioName; adminToken?: string } = {},
): BuiltinSandbox => {
  let sandbox: Sandbox | null = null;
  let starting: Promise<Sandbox> | null = null;
  const savedScenario = (): ScenarioName => {
    const s = readSetting<string>(db, SCENARIO_KEY);
    return (SCENARIO_NAMES as readonly string[]).includes(s ?? '') ? (s as ScenarioName) : 'default';
  };
  // This run starts with the scenario asked for (tests, demonstrations), else the researcher's last choice.
  let scenario: ScenarioName = opts.scenario ?? savedScenario();
  const self: BuiltinSandbox = {
    apiKey: DEMO_API_KEY,
    async ensure() {
      if (sandbox) return sandbox.url;
      starting ??= (async () => {
        const dir = join(workspaceDir, 'sandbox');
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const s = await startSandbox({
          port: 0,
          stateFile: join(dir, 'state.json'),
          ...(opts.adminToken ? { adminToken: opts.adminToken } : {}),
          config: {
            organisations: [{ id: 'demo', name: 'Demo organisation', apiKeys: [DEMO_API_KEY] }],
            scenario,
          },
        });
        sandbox = s;
        return s;
      })();
      return (await starting).url;
    },
    state: () => ({
      running: sandbox !== null,
      url: sandbox?.url ?? null,
      scenario: sandbox ? scenario : null,
    }),
    setScenario(name) {
      scenario = name;
      writeSetting(db, SCENARIO_KEY, name);
      sandbox?.setScenario(name);
      return self.state();
    },
    profileIds: () => readSetting<number[]>(db, BUILTIN_PROFILE_KEY) ?? [],
    adopt(profileId) {
      writeSetting(db, BUILTIN_PROFILE_KEY, [...new Set([...self.profileIds(), profileId])]);
    },
    async close() {
      const s = sandbox;
      sandbox = null;
      starting = null;
      await s?.close();
    },
  };
  return self;
};
