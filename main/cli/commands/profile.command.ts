/** `voicescope profile add|list|test`: the service profiles (address, API version, where the key is). */
import { readFileSync } from 'node:fs';
import type { ApiVersion } from '../../../shared/api/vocabulary';
import { CLOCK_DIFFERENCE_SHOWN_SECONDS } from '../../../shared/study';
import {
  EXIT,
  need,
  unknownCommand,
  UsageError,
  type CommandContext,
  type WorkspaceCommand,
} from '../command';
import { reportProblem, resolveProfile } from '../lookup';

const add = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const api = need(v.api, 'api');
  if (api !== 'v1.3' && api !== 'v1.2') throw new UsageError('--api must be v1.3 or v1.2.');
  let apiKey: string | undefined;
  if (v['key-stdin']) apiKey = keyFromStdin();
  if (!apiKey && !v['key-env'])
    throw new UsageError(
      'Give the API key with --key-env <VARIABLE> or --key-stdin (it is never taken on the command line, where other users could see it).',
    );
  const r = await svc.createProfile({
    name: need(v.name, 'name'),
    baseUrl: need(v.url, 'url'),
    apiVersion: api as ApiVersion,
    ...(apiKey ? { apiKey } : {}),
    ...(v['key-env'] ? { keyEnv: v['key-env'] } : {}),
    isSandbox: v.sandbox === true,
  });
  if (!r.ok) return reportProblem(out, r.error);
  out.say(
    'profile',
    `Profile ${r.value.id} "${r.value.name}" (${r.value.apiVersion}, ${r.value.baseUrl}); key kept in ${r.value.keyRef}.`,
    { profile: r.value },
  );
  return EXIT.ok;
};

const keyFromStdin = (): string => readFileSync(0, 'utf8').trim();

/**
 * Stores the profile's key: on a team database, a member's workstation keeps its own copy (the owner
 * hands it over out of band), read once from standard input or from a variable set for this command.
 */
const key = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const p = await resolveProfile(svc, v.profile);
  const apiKey = v['key-stdin']
    ? keyFromStdin()
    : v['key-env']
      ? process.env[v['key-env']]?.trim()
      : undefined;
  if (!apiKey)
    throw new UsageError(
      'Give the API key with --key-stdin, or --key-env <VARIABLE> naming a variable that holds it (it is never taken on the command line, where other users could see it).',
    );
  const r = await svc.setProfileKey(p.id, apiKey);
  if (!r.ok) return reportProblem(out, r.error);
  out.say('profile', `The key of profile "${p.name}" is kept on this workstation in ${r.value.keyRef}.`, {
    profile: r.value,
  });
  return EXIT.ok;
};

const list = async ({ svc, out }: CommandContext): Promise<number> => {
  for (const p of await svc.listProfiles())
    out.say(
      'profile',
      `${p.id}  ${p.name}  ${p.apiVersion}  ${p.baseUrl}${p.isSandbox ? '  (sandbox: simulated results)' : ''}`,
      { profile: p },
    );
  return EXIT.ok;
};

const test = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const p = await resolveProfile(svc, v.profile);
  const r = await svc.testProfile(p.id);
  if (!r.ok) return reportProblem(out, r.error);
  const offset = await svc.serviceClockOffsetSeconds(p.id);
  out.say('usage', `Connected to ${p.baseUrl}: ${r.value.uploadsRemaining} uploads remaining.`, {
    usage: r.value,
    serviceClockOffsetSeconds: offset,
  });
  if (offset !== null && Math.abs(offset) > CLOCK_DIFFERENCE_SHOWN_SECONDS)
    out.say(
      'clock',
      `Note: the service's clock is ${Math.abs(offset)} s ${offset < 0 ? 'behind' : 'ahead of'} this computer's. Its upload times are kept as it gives them; how long Voicescope waits for results is counted on this computer's clock.`,
      { serviceClockOffsetSeconds: offset },
    );
  return EXIT.ok;
};

export const profileCommand: WorkspaceCommand = {
  name: 'profile',
  help: `  profile add --name <n> --url <base-url> --api <v1.3|v1.2> (--key-env <VAR> | --key-stdin)
  profile key --profile <name|id> (--key-stdin | --key-env <VAR>)
                                            store the key on this workstation (a team member's own copy)
  profile list
  profile test --profile <name|id>          ping and read usage`,
  run: async (ctx) => {
    switch (ctx.sub) {
      case 'add':
        return add(ctx);
      case 'key':
        return key(ctx);
      case 'list':
        return list(ctx);
      case 'test':
        return test(ctx);
      default:
        throw unknownCommand('profile', ctx.sub);
    }
  },
};
