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

/** A number inside a JSON column that names a row: `path` is dot-separated keys, `*` for each element. */
export interface JsonReference {
  readonly table: string;
  readonly column: string;
  readonly path: readonly string[];
  readonly toTable: string;
}

const jsonReferences = (
  table: string,
  columns: readonly string[],
  paths: Record<string, readonly string[]>,
): JsonReference[] =>
  columns.flatMap((column) =>
    Object.entries(paths).flatMap(([toTable, list]) =>
      list.map((p) => ({ table, column, path: p.split('.'), toTable })),
    ),
  );

/**
 * The numbers inside JSON that the product acts on: a curation act's before and after (its undo files a
 * recording back, unmerges, restores a deleted recording with its analyses, removes a status history row)
 * and the provenance notes naming their act. An audit entry's or an event's detail is a record of what
 * happened and is copied as written.
 */
export const JSON_REFERENCES: readonly JsonReference[] = [
  ...jsonReferences('curation_acts', ['before', 'after'], {
    studies: ['recording.study_id'],
    participants: [
      'participantId',
      'from.id',
      'from.mergedInto',
      'into.id',
      'into.mergedInto',
      'recording.participant_id',
    ],
    recordings: [
      'recordings.*.id',
      'duplicates.*.from',
      'duplicates.*.into',
      'recording.id',
      'recording.duplicate_of',
      'analyses.*.recording_id',
    ],
    batches: ['recording.batch_id'],
    curation_acts: ['provenance.*.act', 'recordings.*.provenance.*.act'],
    participant_status_history: ['history'],
  }),
  ...jsonReferences('recordings', ['provenance'], { curation_acts: ['*.act'] }),
];

/** `value` with the number at `path` (every one, through `*`) replaced by `renumber` of it. */
export const renumberAt = (
  value: unknown,
  path: readonly string[],
  renumber: (n: number) => number,
): unknown => {
  if (path.length === 0) return typeof value === 'number' ? renumber(value) : value;
  const [key, ...rest] = path as [string, ...string[]];
  if (key === '*') return Array.isArray(value) ? value.map((v) => renumberAt(v, rest, renumber)) : value;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !(key in value)) return value;
  const o = value as Record<string, unknown>;
  return { ...o, [key]: renumberAt(o[key], rest, renumber) };
};
