/**
 * `voicescope team …`: a team study on PostgreSQL, run by its administrator (a login allowed to create
 * roles; never a workstation's everyday login): `team init` makes the database a team database, `team
 * member add|remove|set-role|list` and `team site add|list` manage who reaches which site.
 */
import { readFileSync } from 'node:fs';
import type { Result } from '../../../shared/result';
import { DATABASE_URL_VARIABLE, askedDatabase } from '../../services/open-study-service';
import { workspaceKeys } from '../../services/study-service';
import type { StudyMove } from '../../services/team-move';
import { openTeamAdmin, type TeamAdmin, type TeamProblem } from '../../services/team-service';
import { defaultWorkspaceDir, openWorkspace } from '../../workspace/workspace';
import {
  EXIT,
  need,
  UsageError,
  type CliValues,
  type CommandInput,
  type StandaloneCommand,
} from '../command';
import type { Output } from '../output';

const EXIT_OF: Record<TeamProblem['code'], number> = {
  DATABASE: EXIT.database,
  NOT_ADMIN: EXIT.refused,
  NOT_TEAM: EXIT.refused,
  INPUT: EXIT.usage,
  NOT_FOUND: EXIT.refused,
  TAKEN: EXIT.refused,
  AUDIT: EXIT.auditBroken,
};

const ACTION: Record<TeamProblem['code'], string> = {
  DATABASE: `Check the team database's address (--database or $${DATABASE_URL_VARIABLE}).`,
  NOT_ADMIN: 'Give the address of the login that set up the team database.',
  NOT_TEAM: 'Run voicescope team init once, as the database administrator.',
  INPUT: 'See voicescope team --help.',
  NOT_FOUND: 'See voicescope team member list and voicescope team site list --study <study>.',
  TAKEN: 'Choose another name.',
  AUDIT: 'See voicescope audit verify on the database the study comes from.',
};

const told = (out: Output, e: TeamProblem): number => {
  out.problem(e.message, ACTION[e.code], { code: e.code });
  return EXIT_OF[e.code];
};

/** The member's password: from a variable or standard input, never the command line or an address. */
const memberPassword = (v: CliValues): string => {
  if (v['key-stdin']) return readFileSync(0, 'utf8').trim();
  const variable = v['key-env'];
  const value = variable ? process.env[variable] : undefined;
  if (!value)
    throw new UsageError(
      'Give the member’s password with --key-env <VARIABLE> or --key-stdin (never on the command line, where other users could see it). Hand it to the member yourself; Voicescope does not print it.',
    );
  return value;
};

type Act = (admin: TeamAdmin, input: CommandInput) => Promise<number>;

const done =
  (out: Output, kind: string, text: string, data: Record<string, unknown> = {}) =>
  (r: Result<unknown, TeamProblem>): number => {
    if (!r.ok) return told(out, r.error);
    out.say(kind, text, data);
    return EXIT.ok;
  };

const init: Act = async (admin, { out }) => {
  const r = await admin.init();
  if (!r.ok) return told(out, r.error);
  out.say(
    'team',
    `${admin.where} is a team database: roles ${r.value.roles.join(', ')}; row-level security on ${r.value.tables} tables. Add members with voicescope team member add.`,
    { roles: r.value.roles, tables: r.value.tables },
  );
  return EXIT.ok;
};

const siteAdd: Act = async (admin, { out, values: v }) => {
  const study = need(v.study, 'study');
  const code = need(v.site?.[0], 'site');
  return done(out, 'site', `Site ${code} added to ${study}.`, { study, code })(
    await admin.addSite({ study, code, name: need(v.name, 'name') }),
  );
};

const siteList: Act = async (admin, { out, values: v }) => {
  const r = await admin.listSites(need(v.study, 'study'));
  if (!r.ok) return told(out, r.error);
  for (const s of r.value)
    out.say('site', `${s.code}  ${s.name}  (${s.participants} participants)`, { ...s });
  return EXIT.ok;
};

const memberAdd: Act = async (admin, { out, values: v }) => {
  const login = need(v.login, 'login');
  const role = need(v.role, 'role');
  const password = memberPassword(v);
  return done(
    out,
    'member',
    `${login} added as ${role}${v.site?.length ? ` at ${v.site.join(', ')}` : ''}.`,
    {
      login,
      role,
      sites: v.site ?? [],
    },
  )(
    await admin.addMember({
      login,
      role,
      password,
      ...(v.study ? { study: v.study } : {}),
      ...(v.site ? { sites: v.site } : {}),
    }),
  );
};

const memberSetRole: Act = async (admin, { out, values: v }) => {
  const login = need(v.login, 'login');
  const role = need(v.role, 'role');
  return done(out, 'member', `${login} is now ${role}.`, { login, role })(
    await admin.setRole({
      login,
      role,
      ...(v.study ? { study: v.study } : {}),
      ...(v.site ? { sites: v.site } : {}),
    }),
  );
};

const memberRemove: Act = async (admin, { out, values: v }) => {
  const login = need(v.login, 'login');
  return done(out, 'member', `${login} removed; that login can no longer connect.`, { login })(
    await admin.removeMember(login),
  );
};

const memberList: Act = async (admin, { out }) => {
  const r = await admin.listMembers();
  if (!r.ok) return told(out, r.error);
  for (const m of r.value)
    out.say(
      'member',
      `${m.login}  ${m.role}  ${m.role === 'owner' ? 'every site' : m.sites.join(', ') || 'no site'}`,
      {
        ...m,
      },
    );
  return EXIT.ok;
};

/** The counts of the study's rows on both sides, table by table; non-zero exit when one differs. */
const moved =
  (out: Output, verb: string) =>
  (r: Result<StudyMove, TeamProblem>): number => {
    if (!r.ok) return told(out, r.error);
    const m = r.value;
    for (const c of m.counts)
      out.say('count', `${c.table}: ${c.before} rows before, ${c.after} after`, { ...c });
    const data = { study: m.study, studyId: m.studyId, complete: m.complete, renumbered: m.renumbered };
    if (!m.complete) {
      out.problem(
        `The copy of ${m.study} was not kept: ${m.counts.some((c) => c.before !== c.after) ? 'the counts above differ' : 'its audit chain did not verify after the copy'}. Nothing was written.`,
        'Report this with the counts above.',
        data,
      );
      return EXIT.failure;
    }
    const shifted = Object.entries(m.renumbered).map(([t, s]) => `${t} +${s}`);
    out.say(
      'study',
      `${m.study} ${verb}: every table's rows counted the same on both sides; audit chain verified (${m.auditEntries} entries)${shifted.length ? `; numbered anew: ${shifted.join(', ')}` : ''}${m.profilesMatched.length ? `; profile ${m.profilesMatched.join(', ')} already there, used as it is` : ''}. Not copied (the workstation's or the team's own): ${m.leftOut.join(', ')}.`,
      { ...data, auditEntries: m.auditEntries, profilesMatched: m.profilesMatched, leftOut: m.leftOut },
    );
    return EXIT.ok;
  };

const importStudyAct: Act = async (admin, { out, values: v }) =>
  moved(
    out,
    'copied into the team database',
  )(await admin.importStudy(need(v.from, 'from'), need(v.study, 'study')));

const exportStudyAct: Act = async (admin, { out, values: v }) => {
  const to = need(v.to, 'to');
  return moved(out, `written to ${to}`)(await admin.exportStudy(need(v.study, 'study'), to));
};

const ACTS: Record<string, Act> = {
  init,
  'site add': siteAdd,
  'site list': siteList,
  'member add': memberAdd,
  'member set-role': memberSetRole,
  'member remove': memberRemove,
  'member list': memberList,
  'import-study': importStudyAct,
  'export-study': exportStudyAct,
};

const run = async (input: CommandInput): Promise<number> => {
  const { sub, rest, out, values: v } = input;
  const single = sub === 'init' || sub === 'import-study' || sub === 'export-study';
  const act = ACTS[single ? sub : `${sub ?? ''} ${rest[0] ?? ''}`];
  try {
    if (!act) throw new UsageError(`Unknown command "${['team', sub, rest[0]].filter(Boolean).join(' ')}".`);
    const database = askedDatabase(v.database, process.env);
    if (database === null) throw new UsageError('--database postgres://… is required: the team database.');
    const keys = workspaceKeys(openWorkspace(v.home ?? defaultWorkspaceDir()), {
      workspaceDir: v.home ?? defaultWorkspaceDir(),
    });
    const admin = await openTeamAdmin(database, keys);
    if (!admin.ok) return told(out, admin.error);
    try {
      if (admin.value.notice !== null) out.say('database', admin.value.notice, { where: admin.value.where });
      return await act(admin.value, input);
    } finally {
      await admin.value.close();
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`voicescope: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
};

export const teamCommand: StandaloneCommand = {
  name: 'team',
  help: `  team init --database <postgres://admin@…>  make a PostgreSQL study database a team database (roles,
                                            grants, row-level security); run by its administrator
  team site add --study <s> --site <code> --name <name>   add a site to a study
  team site list --study <s>                the study's sites
  team member add --login <l> --role <owner|coordinator|analyst|monitor> [--study <s> --site <code>…]
                  (--key-env <VAR> | --key-stdin)   a member's own login (password never printed)
  team member set-role --login <l> --role <r> [--study <s> --site <code>…]
  team member remove --login <l>            remove a member and their login
  team member list                          members, roles and sites
  team import-study --from <home|study file> --study <s>   copy a single-user study into the team
                                            database (every row; counts per table, before and after)
  team export-study --study <s> --to <file.sqlite>   write a team study to a new single-user study file`,
  workspace: false,
  run,
};
