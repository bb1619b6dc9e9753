/**
 * The built-in sandbox: the simulated service started inside the workstation, so a researcher can
 * try the whole workflow (or train staff) without credits or network. Its accounts, recordings and
 * credits live in a state file in the workspace, so results stay retrievable across launches; it
 * listens on a new loopback port each launch and its profiles are moved there. Every result it gives
 * is marked simulated, and so is everything the workstation shows or exports from it.
 *
 * Safety: it listens on 127.0.0.1 only, answers only requests whose Host names it (server.ts), and its
 * API key is random, made once per workspace and kept in the workspace's key store like any key, so
 * another program on the computer cannot guess it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MisbehaviourName } from './misbehave';
import { SCENARIO_NAMES, type ScenarioName } from './scenario';
import { startSandbox, type Sandbox } from './server';
import { profileById } from '../db/repos/profiles.repo';
import { readSetting, writeSetting } from '../db/repos/settings.repo';
import type { Store } from '../db/store/types';
import type { KeyStore } from '../workspace/key-store';
import { sandboxDirOf } from '../workspace/workspace';

export const BUILTIN_PROFILE_KEY = 'builtin_sandbox_profiles';
const SCENARIO_KEY = 'builtin_sandbox_scenario';
const MISBEHAVIOUR_KEY = 'builtin_sandbox_misbehaviours';
const KEY_REF_KEY = 'builtin_sandbox_key_ref';
/** The key store's name for the built-in sandbox's key (key stores name keys by profile id or by this). */
export const BUILTIN_KEY_NAME = 'builtin-sandbox';

export interface BuiltinSandboxState {
  readonly running: boolean;
  readonly url: string | null;
  readonly scenario: ScenarioName | null;
  readonly misbehaviours: MisbehaviourName[];
}

export interface BuiltinSandbox {
  /** Starts it if needed; resolves with its base URL. */
  ensure(): Promise<string>;
  state(): BuiltinSandboxState;
  setScenario(name: ScenarioName): Promise<BuiltinSandboxState>;
  /** Switches the misbehaving mode's parts on (an empty list: the sandbox follows the specification). */
  setMisbehaviours(names: readonly MisbehaviourName[]): Promise<BuiltinSandboxState>;
  /** Profile ids that point at the built-in sandbox (read at creation; this object is their only writer). */
  profileIds(): number[];
  adopt(profileId: number): Promise<void>;
  /** Whether the profile holds this workspace's sandbox key (profiles of earlier versions hold the old fixed one). */
  profileHasKey(profileId: number): Promise<boolean>;
  readonly apiKey: string;
  close(): Promise<void>;
}

/**
 * The workspace's sandbox key: made once (32 random bytes), kept in the key store, its reference in the
 * settings. A key that can no longer be read (a deleted key file) is replaced by a new one.
 */
const workspaceKey = async (store: Store, keys: KeyStore, keep: boolean): Promise<string> => {
  const loaded = keys.load((await readSetting(store, KEY_REF_KEY, z.string())) ?? null);
  if (loaded.ok && loaded.value.length >= 16) return loaded.value;
  const key = `vs-sandbox-${randomBytes(32).toString('base64url')}`;
  if (keep) await writeSetting(store, KEY_REF_KEY, keys.saveNamed(BUILTIN_KEY_NAME, key));
  return key;
};

const savedScenario = async (store: Store): Promise<ScenarioName> => {
  const s = await readSetting(store, SCENARIO_KEY, z.string());
  return (SCENARIO_NAMES as readonly string[]).includes(s ?? '') ? (s as ScenarioName) : 'default';
};

const savedMisbehaviours = async (store: Store): Promise<MisbehaviourName[]> =>
  ((await readSetting(store, MISBEHAVIOUR_KEY, z.array(z.unknown()))) ?? []).filter(
    (m): m is MisbehaviourName => MisbehaviourName.safeParse(m).success,
  );

export const createBuiltinSandbox = async (
  store: Store,
  workspaceDir: string,
  opts: {
    keys: KeyStore;
    scenario?: ScenarioName;
    adminToken?: string;
    /**
     * False on a team study for a member who may not write its settings (only its owner does): the
     * sandbox's key is then this run's own, kept nowhere.
     */
    keepKey?: boolean;
  },
): Promise<BuiltinSandbox> => {
  let sandbox: Sandbox | null = null;
  let starting: Promise<Sandbox> | null = null;
  // This run starts with the scenario asked for (tests, demonstrations), else the researcher's last choice.
  let scenario: ScenarioName = opts.scenario ?? (await savedScenario(store));
  let misbehaviours = await savedMisbehaviours(store);
  let profileIds = (await readSetting(store, BUILTIN_PROFILE_KEY, z.array(z.int()))) ?? [];
  const apiKey = await workspaceKey(store, opts.keys, opts.keepKey ?? true);
  const self: BuiltinSandbox = {
    apiKey,
    async ensure() {
      if (sandbox) return sandbox.url;
      starting ??= (async () => {
        const dir = sandboxDirOf(workspaceDir);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const s = await startSandbox({
          port: 0,
          stateFile: join(dir, 'state.json'),
          ...(opts.adminToken ? { adminToken: opts.adminToken } : {}),
          config: {
            organisations: [{ id: 'demo', name: 'Demo organisation', apiKeys: [apiKey] }],
            scenario: { preset: scenario, misbehave: { enabled: misbehaviours } },
          },
        });
        // A state file from an earlier version holds the organisation with the old fixed key: only this
        // workspace's key opens it now (its accounts and recordings stay).
        const demo = s.getOrganisation('demo');
        if (demo && (demo.apiKeys.length !== 1 || demo.apiKeys[0] !== apiKey))
          s.upsertOrganisation({ ...demo, apiKeys: [apiKey] });
        sandbox = s;
        return s;
      })();
      return (await starting).url;
    },
    state: () => ({
      running: sandbox !== null,
      url: sandbox?.url ?? null,
      scenario: sandbox ? scenario : null,
      misbehaviours: [...misbehaviours],
    }),
    async setScenario(name) {
      scenario = name;
      await writeSetting(store, SCENARIO_KEY, name);
      // The preset's misbehaviours (`loose`: all of them) become the researcher's choice.
      sandbox?.setScenario(name);
      misbehaviours = [...(sandbox?.scenario().misbehave.enabled ?? misbehaviours)];
      if (name === 'loose') misbehaviours = [...MisbehaviourName.options];
      await writeSetting(store, MISBEHAVIOUR_KEY, misbehaviours);
      return self.state();
    },
    async setMisbehaviours(names) {
      misbehaviours = [...new Set(names)];
      await writeSetting(store, MISBEHAVIOUR_KEY, misbehaviours);
      sandbox?.setScenario({ misbehave: { enabled: misbehaviours } });
      return self.state();
    },
    profileIds: () => [...profileIds],
    async profileHasKey(profileId) {
      const loaded = opts.keys.load((await profileById(store, profileId))?.key_ref ?? null);
      return loaded.ok && loaded.value === apiKey;
    },
    async adopt(profileId) {
      const next = [...new Set([...profileIds, profileId])];
      await writeSetting(store, BUILTIN_PROFILE_KEY, next);
      profileIds = next;
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
