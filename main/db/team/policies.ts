/**
 * The SQL that makes a study database a team database (PostgreSQL only: roles and row-level security
 * do not exist on SQLite): the team's tables, the group role of each Voicescope role, the GRANTs and
 * the row-level security policies of access.ts, every statement safe to run again (`team init` on a
 * team database brings it up to date).
 *
 * Row security is enabled on every table and not forced: the tables' owner is the administrator who
 * ran `team init`, a login the workstation refuses for everyday work (login-check.ts), and the
 * trigger functions that keep the audit chain must see every row whoever writes.
 */
import { TEAM_ROLES, type TeamRole } from '../../../shared/team';
import { SENDING_ROLES, STUDY_TABLES, TEAM_TABLES, type TableAccess } from './access';
import { ident, literal, type GroupRoles } from './names';

const TEAM_TABLES_SQL = [
  `CREATE TABLE IF NOT EXISTS team_members (
    login text PRIMARY KEY, role text NOT NULL CHECK (role IN (${TEAM_ROLES.map(literal).join(', ')})),
    added_at text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS team_member_sites (
    login text NOT NULL REFERENCES team_members(login) ON DELETE CASCADE,
    study_id bigint NOT NULL, site_code text NOT NULL,
    PRIMARY KEY (login, study_id, site_code),
    FOREIGN KEY (study_id, site_code) REFERENCES study_sites(study_id, code) ON DELETE CASCADE)`,
];

/** The two questions every policy asks, as the member asking (`current_user`): no elevated rights. */
const RULE_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION team_sees_site(study bigint, site text) RETURNS boolean
     LANGUAGE sql STABLE AS $$
     SELECT EXISTS (SELECT 1 FROM team_member_sites g
                    WHERE g.login = current_user AND g.study_id = study AND g.site_code = site) $$`,
  `CREATE OR REPLACE FUNCTION team_sees_study(study bigint) RETURNS boolean
     LANGUAGE sql STABLE AS $$
     SELECT EXISTS (SELECT 1 FROM team_member_sites g WHERE g.login = current_user AND g.study_id = study) $$`,
  // The next audit entry follows the last one of the whole chain, whichever site's it is.
  'ALTER FUNCTION audit_log_follows_chain() SECURITY DEFINER SET search_path = public',
];

const createGroup = (role: string) =>
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${literal(role)}) THEN
       CREATE ROLE ${ident(role)} NOLOGIN;
     END IF;
   END $$`;

const list = (roles: readonly string[]) => roles.map(ident).join(', ');

/** The table's columns other than those left out. */
const columnsBut = (columns: readonly string[], leftOut: readonly string[]) =>
  columns.filter((c) => !leftOut.includes(c)).join(', ');

/** The columns a role other than the owner may not read nor write: the owner's, and the senders' to a non-sender. */
const closedTo = (a: TableAccess, r: TeamRole): readonly string[] => [
  ...(a.ownerOnly ?? []),
  ...(SENDING_ROLES.includes(r) ? [] : (a.senderOnly ?? [])),
];

const grantsOf = (a: TableAccess, g: GroupRoles, columns: readonly string[]): string[] => {
  const t = a.table;
  const readers: TeamRole[] = ['coordinator', 'analyst', 'monitor'];
  const out = [
    `REVOKE ALL ON ${t} FROM PUBLIC, ${list(TEAM_ROLES.map((r) => g[r]))}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO ${ident(g.owner)}`,
  ];
  for (const r of readers) {
    const hidden = [...closedTo(a, r), ...(r === 'analyst' ? (a.identifying ?? []) : [])];
    out.push(
      hidden.length
        ? `GRANT SELECT (${columnsBut(columns, hidden)}) ON ${t} TO ${ident(g[r])}`
        : `GRANT SELECT ON ${t} TO ${ident(g[r])}`,
    );
  }
  for (const r of a.appenders?.roles ?? []) out.push(`GRANT INSERT ON ${t} TO ${ident(g[r])}`);
  for (const r of a.writers) {
    out.push(`GRANT INSERT, DELETE ON ${t} TO ${ident(g[r])}`);
    out.push(`GRANT UPDATE (${columnsBut(columns, closedTo(a, r))}) ON ${t} TO ${ident(g[r])}`);
  }
  return out;
};

const POLICY_NAMES = ['team_owner', 'team_read', 'team_insert', 'team_update', 'team_delete', 'team_append'];

const policiesOf = (a: TableAccess, g: GroupRoles): string[] => {
  const t = a.table;
  const rule = a.reach.rule;
  const readers = list([g.coordinator, g.analyst, g.monitor]);
  const out = [
    `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`,
    ...POLICY_NAMES.map((p) => `DROP POLICY IF EXISTS ${p} ON ${t}`),
    `CREATE POLICY team_owner ON ${t} TO ${ident(g.owner)} USING (true) WITH CHECK (true)`,
    `CREATE POLICY team_read ON ${t} FOR SELECT TO ${readers} USING (${rule})`,
  ];
  if (a.writers.length) {
    const writers = list(a.writers.map((r) => g[r]));
    const own = a.writeRule ? `(${rule}) AND (${a.writeRule})` : rule;
    out.push(
      `CREATE POLICY team_insert ON ${t} FOR INSERT TO ${writers} WITH CHECK (${own})`,
      `CREATE POLICY team_update ON ${t} FOR UPDATE TO ${writers} USING (${own}) WITH CHECK (${own})`,
      `CREATE POLICY team_delete ON ${t} FOR DELETE TO ${writers} USING (${own})`,
    );
  }
  if (a.appenders) {
    const appenders = list(a.appenders.roles.map((r) => g[r]));
    out.push(`CREATE POLICY team_append ON ${t} FOR INSERT TO ${appenders} WITH CHECK (${a.appenders.rule})`);
  }
  return out;
};

/** The team's tables are read by every member and written only by the administrator. */
const teamTableStatements = (a: TableAccess, g: GroupRoles): string[] => [
  `REVOKE ALL ON ${a.table} FROM PUBLIC`,
  `GRANT SELECT ON ${a.table} TO ${list(TEAM_ROLES.map((r) => g[r]))}`,
  `ALTER TABLE ${a.table} ENABLE ROW LEVEL SECURITY`,
  ...POLICY_NAMES.map((p) => `DROP POLICY IF EXISTS ${p} ON ${a.table}`),
  `CREATE POLICY team_read ON ${a.table} FOR SELECT TO ${list(TEAM_ROLES.map((r) => g[r]))} USING (true)`,
];

/**
 * Every statement of `team init` after the schema is up to date, in order. `columnsOf` gives each
 * table's columns in the database as it is (column GRANTs name them).
 */
export const teamStatements = (
  database: string,
  g: GroupRoles,
  columnsOf: (table: string) => readonly string[],
): string[] => {
  const everyGroup = list(TEAM_ROLES.map((r) => g[r]));
  return [
    ...TEAM_ROLES.map((r) => createGroup(g[r])),
    ...TEAM_TABLES_SQL,
    ...RULE_FUNCTIONS,
    `REVOKE CONNECT ON DATABASE ${ident(database)} FROM PUBLIC`,
    `GRANT CONNECT ON DATABASE ${ident(database)} TO ${everyGroup}`,
    `GRANT USAGE ON SCHEMA public TO ${everyGroup}`,
    `GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${list([g.owner, g.coordinator])}`,
    ...STUDY_TABLES.flatMap((a) => [...grantsOf(a, g, columnsOf(a.table)), ...policiesOf(a, g)]),
    ...TEAM_TABLES.flatMap((a) => teamTableStatements(a, g)),
  ];
};
