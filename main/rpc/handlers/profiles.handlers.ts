/**
 * Service profiles. A key comes in (create, replace) and never goes back out; the renderer learns only
 * whether there is one and where it is kept. The built-in sandbox is a profile like any other, marked
 * as such so every screen can say its results are simulated.
 */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import { parseKeyRef, type KeyRefScheme } from '../../../shared/key-ref';
import type { profilesContract, ProfileView } from '../../../shared/contract/profiles.contract';
import { ok, type Result } from '../../../shared/result';
import type { AppError } from '../../../shared/rpc';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

const KEY_LOCATION: Record<KeyRefScheme, (name: string) => string> = {
  'safe-storage': () => "the operating system's keychain",
  'key-file': () => 'a key file only your user account can read (not encrypted)',
  env: (name) => `the environment variable ${name}`,
};

export const keyLocation = (keyRef: string | null): string | null => {
  if (keyRef === null) return null;
  const { scheme, name } = parseKeyRef(keyRef);
  return scheme === null ? 'an unknown place' : KEY_LOCATION[scheme](name);
};

export const profilesHandlers = (d: HostDeps): HandlersOf<typeof profilesContract> => {
  const { service, sandbox } = d;
  const view = async (id: number): Promise<ProfileView | null> => {
    const p = service.listProfiles().find((x) => x.id === id);
    if (!p) return null;
    return {
      id: p.id,
      name: p.name,
      baseUrl: p.baseUrl,
      apiVersion: p.apiVersion,
      isSandbox: p.isSandbox || sandbox.profileIds().includes(p.id),
      hasKey: p.keyRef !== null,
      keyLocation: keyLocation(p.keyRef),
      studies: service.profileStudyCount(id),
      lastUsage: await service.latestUsage(p.id),
    };
  };
  const viewOf = async (id: number): Promise<Result<ProfileView, AppError>> => {
    const v = await view(id);
    return v ? ok(v) : notFound('service profile');
  };
  const test = async (profileId: number) => {
    const ping = await service.pingProfile(profileId);
    if (!ping.ok) return fromProblem(ping.error);
    const usage = await service.testProfile(profileId);
    return usage.ok
      ? ok({
          ping: ping.value,
          usage: usage.value,
          serviceClockOffsetSeconds: service.serviceClockOffsetSeconds(profileId),
        })
      : fromProblem(usage.error);
  };

  return {
    'profiles.list': async () => {
      const views: ProfileView[] = [];
      for (const p of service.listProfiles()) views.push((await view(p.id))!);
      return ok(views);
    },
    async 'profiles.testDraft'({ baseUrl, apiVersion, apiKey }) {
      const r = await service.testDraftProfile({ baseUrl, apiVersion, apiKey });
      return r.ok ? ok(r.value) : fromProblem(r.error);
    },
    async 'profiles.create'({ name, baseUrl, apiVersion, apiKey }) {
      const created = await service.createProfile({ name, baseUrl, apiVersion, apiKey });
      if (created.ok) return viewOf(created.value.id);
      // A name already taken is a conflict; anything else (an address, a key store that refuses) a refusal.
      const taken = service.listProfiles().some((p) => p.name === name.trim());
      return fromProblem(created.error, taken ? 'CONFLICT' : 'REFUSED');
    },
    async 'profiles.useSandbox'({ apiVersion }) {
      const url = await sandbox.ensure();
      const existing = service
        .listProfiles()
        .find((p) => sandbox.profileIds().includes(p.id) && p.apiVersion === apiVersion);
      if (existing) {
        if (existing.baseUrl !== url) await service.setProfileAddress(existing.id, url);
        return viewOf(existing.id);
      }
      const name = sandboxProfileName(
        apiVersion,
        service.listProfiles().map((p) => p.name),
      );
      const created = await service.createProfile({
        name,
        baseUrl: url,
        apiVersion,
        apiKey: sandbox.apiKey,
        isSandbox: true,
      });
      if (!created.ok) return fromProblem(created.error);
      sandbox.adopt(created.value.id);
      return viewOf(created.value.id);
    },
    'profiles.test': ({ profileId }) => test(profileId),
    async 'profiles.replaceKey'({ profileId, apiKey }) {
      const r = await service.setProfileKey(profileId, apiKey);
      return r.ok ? viewOf(profileId) : fromProblem(r.error);
    },
    async 'profiles.removeKey'({ profileId }) {
      const r = await service.setProfileKey(profileId, null);
      return r.ok ? viewOf(profileId) : fromProblem(r.error);
    },
  };
};

const sandboxProfileName = (v: ApiVersion, taken: readonly string[]): string => {
  const base = `Built-in sandbox ${v} (simulated)`;
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base} ${i}`)) return `${base} ${i}`;
};
