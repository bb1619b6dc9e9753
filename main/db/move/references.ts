/**
 * Which column of a study database points at which row, for copying a study from one database to
 * another with new numbers: the foreign keys the engine's catalog declares, and the references the
 * schema keeps without a declared key (written once here). A column named `…_id` that is neither is
 * listed in NOT_REFERENCES (`references.test.ts` fails on any other).
 */
import type { SchemaShape } from '../store/catalog';

export interface Reference {
  readonly table: string;
  readonly column: string;
  readonly toTable: string;
  readonly toColumn: string;
}

/** References the schema keeps without a foreign key (the log tables are append-only and outlive rows). */
export const IMPLICIT_REFERENCES: readonly Reference[] = [
  ['audit_log', 'study_id', 'studies'],
  ['audit_log', 'profile_id', 'service_profiles'],
  ['event_log', 'study_id', 'studies'],
  ['event_log', 'recording_id', 'recordings'],
  ['curation_acts', 'recording_id', 'recordings'],
  ['curation_acts', 'participant_id', 'participants'],
  ['curation_acts', 'audit_id', 'audit_log'],
  ['measure_values', 'participant_id', 'participants'],
  ['needs_you_dismissals', 'act_id', 'curation_acts'],
].map(([table, column, toTable]) => ({ table: table!, column: column!, toTable: toTable!, toColumn: 'id' }));

/** Integer columns named like a reference that are none: numbers of the service, not of this database. */
export const NOT_REFERENCES: readonly string[] = [];

const FOREIGN_KEY = /^(\w+) -> (\w+)\.(\w+) on delete /;

/** The declared foreign keys of `schema` and the implicit references of its tables. */
export const referencesOf = (schema: SchemaShape): Reference[] => {
  const declared = Object.entries(schema).flatMap(([table, shape]) =>
    shape.foreignKeys.flatMap((fk) => {
      const m = FOREIGN_KEY.exec(fk);
      return m ? [{ table, column: m[1]!, toTable: m[2]!, toColumn: m[3]! }] : [];
    }),
  );
  const implicit = IMPLICIT_REFERENCES.filter(
    (r) => schema[r.table]?.columns.some((c) => c.startsWith(`${r.column} `)) === true,
  );
  return [...declared, ...implicit];
};

/** The integer columns named `…_id` (or `…_of`, `…_into`) that no reference covers: a schema change to look at. */
export const unexplainedIdColumns = (schema: SchemaShape): string[] => {
  const refs = new Set(referencesOf(schema).map((r) => `${r.table}.${r.column}`));
  return Object.entries(schema).flatMap(([table, shape]) =>
    shape.columns
      .map((c) => c.split(' '))
      .filter(([name, kind]) => kind === 'integer' && /_id$/.test(name!))
      .map(([name]) => `${table}.${name!}`)
      .filter((c) => !refs.has(c) && !NOT_REFERENCES.includes(c)),
  );
};
