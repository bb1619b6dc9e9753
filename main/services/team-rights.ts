/**
 * What each role of a team study may do from a workstation, written once (REDCap's user rights as the
 * model; docs/team.md has the table): the database's own rules (main/db/team/access.ts) are the
 * guard, and this module refuses early, in a sentence that names the member's role and who can do
 * it, work the database would refuse with a bare "permission denied". A workstation that is not
 * connected to a team database (SQLite, or a PostgreSQL study of one login) may do everything.
 */
import { DEFAULT_SITE, TEAM_WORK, type TeamRole, type TeamWork } from '../../shared/team';
import { err, ok, type Result } from '../../shared/result';
import { siteExists, sitesGrantedToMe } from '../db/team/members.repo';
import type { Queryable } from '../db/store/types';
import { problem, type ServiceProblem } from '../problem';

/** The member a workstation works as on a team database. */
export interface TeamSession {
  readonly login: string;
  readonly role: TeamRole;
  /** The team database, as server, port and name: what the workstation's own service keys are kept under. */
  readonly database: string;
}

export type { TeamWork };

const RIGHTS: Record<TeamWork, { readonly roles: readonly TeamRole[]; readonly what: string }> = {
  import: { roles: ['owner', 'coordinator'], what: 'import recordings' },
  curate: { roles: ['owner', 'coordinator'], what: 'curate recordings or participants' },
  export: { roles: ['owner', 'analyst'], what: 'export data' },
  verifyAudit: { roles: ['owner'], what: 'check the whole audit log' },
  // The workstations that send: the owner's and coordinators' (access.ts, SENDING_ROLES).
  createAccounts: { roles: ['owner', 'coordinator'], what: "create participants' service accounts" },
  // The study's design and service profiles are written by the owner only (access.ts).
  design: { roles: ['owner'], what: "change the study's design" },
  profiles: { roles: ['owner'], what: 'change service profiles or their keys' },
  deleteData: { roles: ['owner'], what: "archive or delete the study's data" },
};

const roleList = (roles: readonly TeamRole[]): string =>
  roles.length === 1 ? `the ${roles[0]}` : `an ${roles.slice(0, -1).join(', ')} or ${roles.at(-1)}`;

/** Null when the member may do `work`; otherwise the refusal in the researcher's words. */
export const refusalForRole = (member: TeamSession | null, work: TeamWork): ServiceProblem | null => {
  const right = RIGHTS[work];
  if (member === null || right.roles.includes(member.role)) return null;
  return problem(
    `Your role in this study (${member.role}) cannot ${right.what}.`,
    `Ask the study's owner to do it, or to give your login a role that can (${roleList(right.roles)}).`,
  );
};

/** The work the member may do (everything outside a team database): the window shows only these. */
export const allowedWork = (member: TeamSession | null): TeamWork[] =>
  TEAM_WORK.filter((work) => refusalForRole(member, work) === null);

/** Where the researcher names the site of new participants: the command line's option or the window's choice. */
export type SiteAsker = 'command' | 'window';

const CHOOSE_SITE: Record<SiteAsker, { readonly where: string; readonly one: (code: string) => string }> = {
  command: { where: 'with --site', one: (code) => `Add --site ${code} (or another of your sites).` },
  window: {
    where: 'under “Site of new participants”',
    one: () => 'Choose one of them under “Site of new participants”.',
  },
};

/**
 * The database's refusal of a write (or read) the member's role may not make, in the researcher's
 * words: every command not refused early (refusalForRole) is still guarded by the database, and this
 * is what the member is told when it refuses. Null when `denied` is false (anything else: not a
 * refusal) or outside a team database.
 */
export const refusalByDatabase = (member: TeamSession | null, denied: boolean): ServiceProblem | null =>
  member === null || !denied
    ? null
    : problem(
        `Your role in this study (${member.role}) cannot make this change: the study database refused it, and nothing was written.`,
        "Ask the study's owner to do it, or to give your login a role that can.",
      );

/**
 * The site an import's new participants are put at: the one asked for, which must be a site of the
 * study and, for a coordinator, granted to them; else the coordinator's one site; else the study's
 * default site for the owner and outside a team database. A coordinator granted several sites must
 * choose. `asker` words the refusals for where the researcher chooses.
 */
export const importSite = async (
  q: Queryable,
  member: TeamSession | null,
  studyId: number,
  asked: string | undefined,
  asker: SiteAsker,
): Promise<Result<string, ServiceProblem>> => {
  const choose = CHOOSE_SITE[asker];
  if (member === null || member.role === 'owner') {
    if (asked === undefined) return ok(DEFAULT_SITE.code);
    return (await siteExists(q, studyId, asked))
      ? ok(asked)
      : err(
          problem(
            `Site ${asked} is not a site of this study.`,
            `Choose one of the study's sites ${choose.where}; a new site is added by the team database's administrator (voicescope team site add).`,
          ),
        );
  }
  const granted = await sitesGrantedToMe(q, studyId);
  if (asked !== undefined)
    return granted.includes(asked)
      ? ok(asked)
      : err(
          problem(
            `Site ${asked} is not one of your sites in this study (${granted.join(', ') || 'none'}).`,
            `Choose one of them ${choose.where}, or ask the study's owner to grant you site ${asked}.`,
          ),
        );
  if (granted.length === 1) return ok(granted[0]!);
  return err(
    granted.length === 0
      ? problem(
          'No site of this study is granted to you, so there is nowhere to put new participants.',
          "Ask the study's owner to grant you a site.",
        )
      : problem(
          `You work at sites ${granted.slice(0, -1).join(', ')} and ${granted.at(-1)} of this study: say which site the new participants belong to.`,
          choose.one(granted[0]!),
        ),
  );
};
