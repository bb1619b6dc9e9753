/**
 * Service profiles: created with an address and (optionally) a key, listed, given a new key or a new
 * address (the profile's queue restarts), and checked against the service. Key changes go to the
 * audit log: which profile, what happened, where the key is kept; never the key.
 */
import type { Usage } from '../../shared/api/domain';
import type { ApiVersion } from '../../shared/api/vocabulary';
import { keyRefOf } from '../../shared/key-ref';
import { err, ok, type Result } from '../../shared/result';
import type { ProfileSummary } from '../../shared/study';
import { appendAudit } from '../db/repos/audit.repo';
import {
  allProfiles,
  deleteProfile,
  insertProfile,
  profileById,
  profileNameTaken,
  setProfileBaseUrl,
  setProfileKeyRef,
  studyCountOfProfile,
  type ProfileRow,
} from '../db/repos/profiles.repo';
import type { Engine } from './engine.service';
import { keyAddressProblem, keyedClient } from './key-address';
import { ownKeyName, sendingKeyRef } from './service-key';
import { fromApi, problem, type ServiceContext, type ServiceProblem } from './service-context';
import type { UsageService } from './usage.service';

/** A connection test's outcome: the service's ping, its usage, and its clock against this computer's. */
export interface ConnectionTest {
  readonly ping: string;
  readonly usage: Usage;
  /** The service's clock minus this computer's, in whole seconds; null if unknown. */
  readonly serviceClockOffsetSeconds: number | null;
}

export interface ProfilesService {
  createProfile(p: {
    name: string;
    baseUrl: string;
    apiVersion: ApiVersion;
    apiKey?: string;
    keyEnv?: string;
    isSandbox?: boolean;
  }): Promise<Result<ProfileSummary, ServiceProblem>>;
  listProfiles(): Promise<ProfileSummary[]>;
  /** How many studies use the profile. */
  profileStudyCount(profileId: number): Promise<number>;
  /** Stores a new key for the profile (or removes it with null); its queue restarts with the new key. */
  setProfileKey(profileId: number, apiKey: string | null): Promise<Result<ProfileSummary, ServiceProblem>>;
  /** Moves a profile to another address (the built-in sandbox gets a new port each launch); its queue restarts. */
  setProfileAddress(profileId: number, baseUrl: string): Promise<Result<ProfileSummary, ServiceProblem>>;
  /** Checks an address and key before anything is saved: a ping and a usage read. */
  testDraftProfile(p: {
    baseUrl: string;
    apiVersion: ApiVersion;
    apiKey: string;
  }): Promise<Result<ConnectionTest, ServiceProblem>>;
  /** The service's answer to ping (no key needed, but through the profile's address). */
  pingProfile(profileId: number): Promise<Result<string, ServiceProblem>>;
  /** Checks address and key: a ping and a usage read. */
  testProfile(profileId: number): Promise<Result<Usage, ServiceProblem>>;
  /** The service's clock minus this computer's, in whole seconds, as its latest answer said; null if unknown. */
  serviceClockOffsetSeconds(profileId: number): Promise<number | null>;
}

const toProfile = (r: ProfileRow): ProfileSummary => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  apiVersion: r.api_version,
  isSandbox: r.is_sandbox === 1,
  keyRef: r.key_ref,
});

/** Stores a key; a key store that refuses (the desktop app on Linux without a keyring) says why in the researcher's words. */
const storedKey = (save: () => string): Result<string, ServiceProblem> => {
  try {
    return ok(save());
  } catch (e) {
    const action = (e as { action?: unknown }).action;
    return err(
      problem(
        e instanceof Error ? e.message : 'The API key could not be stored.',
        typeof action === 'string'
          ? action
          : 'Check where Voicescope keeps API keys (Settings), then try again.',
      ),
    );
  }
};

/** The profile as this workstation sends under it: its key is the workstation's own where it has one. */
const workstationSummary = (ctx: ServiceContext, r: ProfileRow): ProfileSummary => {
  const ref = sendingKeyRef(ctx.keys, ctx.member, r);
  return { ...toProfile(r), keyRef: ref.ok ? ref.value : null };
};

/**
 * A team member other than the owner keeps the profile's key on this workstation only (service-key.ts):
 * the database's reference is the owner's, and unchanged.
 */
const setOwnKey = async (
  ctx: ServiceContext,
  engine: Engine,
  p: ProfileRow,
  apiKey: string | null,
): Promise<Result<ProfileSummary, ServiceProblem>> => {
  const name = ownKeyName(ctx.member, p.name)!;
  const hadRunner = engine.hasRunner(p.id);
  await engine.forgetProfile(p.id);
  if (apiKey === null) ctx.keys.remove(ctx.keys.findOwn(name));
  else {
    const ref = storedKey(() => ctx.keys.saveOwn(name, apiKey));
    if (!ref.ok) return ref;
    ctx.logFacts.noteKeyRef(ref.value);
  }
  if (hadRunner && apiKey !== null) await engine.ensureRunner(p.id);
  return ok(workstationSummary(ctx, p));
};

export const profilesService = (
  ctx: ServiceContext,
  engine: Engine,
  usage: UsageService,
): ProfilesService => {
  const { store, keys, iso } = ctx;
  const summaryOf = (r: ProfileRow) => workstationSummary(ctx, r);
  const storeKey = (profileId: number, key: string) => storedKey(() => keys.save(profileId, key));
  /**
   * Writes the profile's key reference with its audit entry (which profile, what happened, where the
   * key is kept) in one transaction, then tells the log the references now in use.
   */
  const writeKeyRef = async (
    profileId: number,
    ref: string | null,
    audit: { kind: 'key_added' | 'key_replaced' | 'key_removed'; ref: string } | null,
  ) => {
    await store.transaction(
      async (tx) => {
        await setProfileKeyRef(tx, profileId, ref);
        if (audit)
          await appendAudit(tx, {
            at: iso(),
            kind: audit.kind,
            profileId,
            subject: (await profileById(tx, profileId))?.name ?? null,
            detail: { storage: audit.ref.split(':')[0]! },
          });
      },
      { repeatable: true },
    );
    await ctx.logFacts.refreshKeyRefs(store);
  };

  return {
    async createProfile(p) {
      const name = p.name.trim();
      if (!name)
        return err(problem('The profile needs a name.', 'Give it a name such as "Lab account (v1.3)".'));
      const url = serviceAddress(p.baseUrl);
      if (!url.ok) return url;
      if (await profileNameTaken(store, name))
        return err(problem(`A profile named "${name}" already exists.`, 'Choose another name.'));
      const id = await insertProfile(store, {
        name,
        baseUrl: url.value,
        apiVersion: p.apiVersion,
        isSandbox: p.isSandbox === true,
        createdAt: iso(),
      });
      const stored = p.keyEnv ? ok(keyRefOf('env', p.keyEnv)) : p.apiKey ? storeKey(id, p.apiKey) : ok(null);
      if (!stored.ok) {
        await deleteProfile(store, id);
        await ctx.logFacts.refreshKeyRefs(store);
        return stored;
      }
      const ref = stored.value;
      await writeKeyRef(id, ref, ref === null ? null : { kind: 'key_added', ref });
      return ok(toProfile((await profileById(store, id))!));
    },
    listProfiles: async () => (await allProfiles(store)).map(summaryOf),
    profileStudyCount: (profileId) => studyCountOfProfile(store, profileId),
    async setProfileKey(profileId, apiKey) {
      const p = await profileById(store, profileId);
      if (!p) return err(problem('This service profile does not exist.', 'Reload the list of profiles.'));
      if (ctx.member !== null && ctx.member.role !== 'owner') return setOwnKey(ctx, engine, p, apiKey);
      const hadRunner = engine.hasRunner(profileId);
      await engine.forgetProfile(profileId);
      const stored = apiKey === null ? ok(null) : storeKey(profileId, apiKey);
      if (!stored.ok) {
        if (hadRunner) await engine.ensureRunner(profileId);
        return stored;
      }
      const ref = stored.value;
      // The old key goes after the new one is stored (same place: the new one has overwritten it already).
      if (p.key_ref !== null && p.key_ref !== ref) keys.remove(p.key_ref);
      const was = p.key_ref;
      await writeKeyRef(
        profileId,
        ref,
        ref !== null
          ? { kind: was === null ? 'key_added' : 'key_replaced', ref }
          : was !== null
            ? { kind: 'key_removed', ref: was }
            : null,
      );
      if (hadRunner && ref !== null) await engine.ensureRunner(profileId);
      return ok(toProfile((await profileById(store, profileId))!));
    },
    async setProfileAddress(profileId, baseUrl) {
      if (!(await profileById(store, profileId)))
        return err(problem('This service profile does not exist.', 'Reload the list of profiles.'));
      const refused = keyAddressProblem(baseUrl);
      if (refused) return err(refused);
      const hadRunner = engine.hasRunner(profileId);
      await engine.forgetProfile(profileId);
      await setProfileBaseUrl(store, profileId, baseUrl.replace(/\/+$/, ''));
      if (hadRunner) await engine.ensureRunner(profileId);
      return ok(toProfile((await profileById(store, profileId))!));
    },
    async testDraftProfile({ baseUrl, apiVersion, apiKey }) {
      const url = serviceAddress(baseUrl);
      if (!url.ok) return url;
      const client = keyedClient({
        profile: { baseUrl: url.value, version: apiVersion, apiKey },
        now: ctx.now,
      });
      const ping = await client.ping();
      if (!ping.ok) return err(saying('The service did not answer ping: ', fromApi(ping.error)));
      const read = await client.getUsage();
      if (!read.ok)
        return err(saying('The service answered, but reading usage failed: ', fromApi(read.error)));
      const offset = client.serviceClockOffsetMs?.() ?? null;
      return ok({
        ping: ping.value,
        usage: read.value,
        serviceClockOffsetSeconds: offset === null ? null : Math.round(offset / 1000),
      });
    },
    async pingProfile(profileId) {
      const c = await engine.clientFor(profileId);
      if (!c.ok) return c;
      const ping = await c.value.ping();
      return ping.ok ? ok(ping.value) : err(fromApi(ping.error));
    },
    async serviceClockOffsetSeconds(profileId) {
      const c = await engine.clientFor(profileId);
      const ms = c.ok ? (c.value.serviceClockOffsetMs?.() ?? null) : null;
      return ms === null ? null : Math.round(ms / 1000);
    },
    async testProfile(profileId) {
      const c = await engine.clientFor(profileId);
      if (!c.ok) return c;
      const ping = await c.value.ping();
      if (!ping.ok) return err(fromApi(ping.error));
      return usage.readUsage(profileId);
    },
  };
};

/** A service address as a profile keeps it (no trailing slash), refused when it is not one or may not receive a key. */
const serviceAddress = (baseUrl: string): Result<string, ServiceProblem> => {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return err(
      problem(
        `"${baseUrl}" is not a web address.`,
        'Enter the service address, e.g. https://api.example.org.',
      ),
    );
  }
  const refused = keyAddressProblem(url.href);
  return refused ? err(refused) : ok(url.origin + url.pathname.replace(/\/+$/, ''));
};

const saying = (prefix: string, p: ServiceProblem): ServiceProblem => ({ ...p, message: prefix + p.message });
