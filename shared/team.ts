/**
 * The words of a team study (several people, several sites, one PostgreSQL database): the roles a
 * member can have, modelled on REDCap's user rights, and the site every study starts with.
 */

/**
 * owner: design, members, curation, export, the service profile; every site. coordinator: import and
 * curate their own sites' participants. analyst: read (pseudonymised) the sites granted. monitor: read
 * the sites granted, change nothing.
 */
export const TEAM_ROLES = ['owner', 'coordinator', 'analyst', 'monitor'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const isTeamRole = (word: string): word is TeamRole =>
  (TEAM_ROLES as readonly string[]).includes(word);

/** The site every study has from its creation (and every participant is at until moved). */
export const DEFAULT_SITE = { code: 'main', name: 'Main site' } as const;

/** A site's code: short, lower-case letters, digits and dashes (it is typed on the command line). */
export const SITE_CODE = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * The kinds of work a role may or may not do from a workstation (main/services/team-rights.ts says
 * which roles may do each); the window hides what the member's role may not do.
 */
export const TEAM_WORK = [
  'import',
  'curate',
  'export',
  'verifyAudit',
  'createAccounts',
  'design',
  'profiles',
  'deleteData',
] as const;
export type TeamWork = (typeof TEAM_WORK)[number];
