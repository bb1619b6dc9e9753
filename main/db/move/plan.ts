/**
 * What copying one study from a database to another takes, read from the source's catalog (catalog.ts)
 * so that a column or table a later migration adds comes along without a change here: each table's
 * columns, the condition that picks the study's rows (its own `study_id`, or the reference to a table
 * whose rows are the study's), whether its rows are numbered (`id`, given new numbers in the target
 * when the target already has rows), the references to remap, and the order to insert the tables in.
 */
import type { SchemaShape } from '../store/catalog';
import { VERSION_TABLE } from '../store/dialect';
import { referencesOf, type Reference } from './references';

/** The service profiles a study uses are matched by name in the target, not copied twice. */
export const PROFILES = 'service_profiles';
/** The workstations that hold a study's files: taken along, unless the target knows them already. */
export const WORKSTATIONS = 'workstations';
/** Tables of the whole database that a study's rows name: only the rows they name come along. */
const NAMED_BY_A_STUDY = [PROFILES, WORKSTATIONS];

/**
 * Tables of the workstation or of the whole database, not of a study: not copied. Settings and usage
 * readings belong to the workstation (or the service account) that wrote them, the request budget to
 * the workstations sending to a service profile now; the members belong to the team database.
 */
export const NOT_OF_A_STUDY: readonly string[] = [
  VERSION_TABLE,
  'settings',
  'usage_history',
  'request_budgets',
  'team_members',
  'team_member_sites',
];

export interface TablePlan {
  readonly table: string;
  readonly columns: readonly string[];
  readonly primaryKey: readonly string[];
  /** The primary key is one integer `id`: the rows get new numbers where the target has rows. */
  readonly numbered: boolean;
  /** The study's rows: a condition on the table whose every `?` is the study's id. */
  readonly member: string;
  /** The references from this table's columns (self-references included). */
  readonly references: readonly Reference[];
}

export interface CopyPlan {
  /** In the order rows can be inserted (what a row points at comes first). */
  readonly tables: readonly TablePlan[];
  /** Tables of the source left out: the workstation's own, and any not reached from a study. */
  readonly leftOut: readonly string[];
}

const q = (name: string) => `"${name}"`;
const columnNames = (schema: SchemaShape, table: string) =>
  schema[table]!.columns.map((c) => c.split(' ')[0]!);

const memberConditions = (schema: SchemaShape, refs: readonly Reference[]): Map<string, string> => {
  const member = new Map<string, string>([['studies', `${q('studies')}.id = ?`]]);
  const consider = Object.keys(schema).filter(
    (t) => !NOT_OF_A_STUDY.includes(t) && !NAMED_BY_A_STUDY.includes(t),
  );
  for (const t of consider)
    if (t !== 'studies' && columnNames(schema, t).includes('study_id')) member.set(t, `${q(t)}.study_id = ?`);
  // Then tables reached through a reference, until no more are reached.
  for (let grew = true; grew;) {
    grew = false;
    for (const t of consider.filter((x) => !member.has(x))) {
      const via = refs.find((r) => r.table === t && r.toTable !== t && member.has(r.toTable));
      if (!via) continue;
      const parent = member.get(via.toTable)!;
      member.set(
        t,
        `${q(t)}.${q(via.column)} IN (SELECT ${q(via.toTable)}.${q(via.toColumn)} FROM ${q(via.toTable)} WHERE ${parent})`,
      );
      grew = true;
    }
  }
  // The profiles and workstations the study's rows name.
  for (const named of NAMED_BY_A_STUDY) {
    const naming = refs.filter((r) => r.toTable === named && member.has(r.table));
    if (schema[named] && naming.length)
      member.set(
        named,
        naming
          .map(
            (r) =>
              `${q(named)}.${q(r.toColumn)} IN (SELECT ${q(r.table)}.${q(r.column)} FROM ${q(r.table)} WHERE ${member.get(r.table)!})`,
          )
          .join(' OR '),
      );
  }
  return member;
};

/** The tables in an order where every table comes after those it references (self-references aside). */
const insertOrder = (tables: readonly string[], refs: readonly Reference[]): string[] => {
  const done: string[] = [];
  const pending = [...tables];
  while (pending.length) {
    const next = pending.find((t) =>
      refs.every((r) => r.table !== t || r.toTable === t || !pending.includes(r.toTable)),
    );
    if (next === undefined)
      throw new Error(`The tables ${pending.join(', ')} reference one another in a circle.`);
    done.push(next);
    pending.splice(pending.indexOf(next), 1);
  }
  return done;
};

export const copyPlan = (schema: SchemaShape): CopyPlan => {
  const refs = referencesOf(schema);
  const member = memberConditions(schema, refs);
  const copied = Object.keys(schema).filter((t) => member.has(t));
  const tables = insertOrder(copied, refs).map((table) => {
    const shape = schema[table]!;
    return {
      table,
      columns: columnNames(schema, table),
      primaryKey: shape.primaryKey,
      numbered: shape.primaryKey.length === 1 && shape.primaryKey[0] === 'id',
      member: member.get(table)!,
      references: refs.filter((r) => r.table === table),
    };
  });
  return { tables, leftOut: Object.keys(schema).filter((t) => !member.has(t)) };
};
