/**
 * Which API key a workstation sends under for a service profile. Outside a team database, and for the
 * owner of one, it is the key the profile's reference (`key_ref`) names. On a team database every
 * member's workstation may keep its own copy, handed over by the owner out of band and stored in this
 * workspace's key store (`voicescope profile key`, or the profile's page in the window); the database
 * never holds it, and only the owner reads `key_ref`. A coordinator's workstation without one is told
 * plainly whom to ask and what to run.
 */
import { err, ok, type Result } from '../../shared/result';
import type { ProfileRow } from '../db/repos/profiles.repo';
import { teamServiceKeyName, type KeyStore } from '../workspace/key-store';
import { problem, type ServiceProblem } from '../problem';
import type { TeamSession } from './team-rights';

/** The command that stores a profile's key on this workstation. */
export const storeKeyCommand = (profileName: string): string =>
  `voicescope profile key --profile "${profileName}" --key-stdin`;

/** The refusal a member's workstation gives when it holds no key for the profile. */
export const noKeyOnWorkstation = (profileName: string): ServiceProblem =>
  problem(
    `This workstation has no key for the service profile ${profileName}.`,
    `Ask the study's owner for it, then run ${storeKeyCommand(profileName)} (and paste the key), or enter it on the profile's page in the window.`,
  );

/** The name this workstation keeps its own key for the profile under, on a team database; null elsewhere. */
export const ownKeyName = (member: TeamSession | null, profileName: string): string | null =>
  member === null ? null : teamServiceKeyName(member.database, profileName);

/** The reference of the key to send under (the workstation's own first, on a team database), or why there is none. */
export const sendingKeyRef = (
  keys: KeyStore,
  member: TeamSession | null,
  p: Pick<ProfileRow, 'name' | 'key_ref'>,
): Result<string | null, ServiceProblem> => {
  const own = ownKeyName(member, p.name);
  const found = own === null ? null : keys.findOwn(own);
  if (found !== null) return ok(found);
  if (p.key_ref !== null || member === null || member.role === 'owner') return ok(p.key_ref);
  return err(noKeyOnWorkstation(p.name));
};
