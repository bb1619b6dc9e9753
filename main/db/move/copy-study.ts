/**
 * Copies one study's rows from one database to another (a single-user SQLite file into a team
 * database, or back), table by table as the plan says, inside the caller's transaction on the target.
 *
 * Numbers: a numbered table's rows keep their numbers when the target has no row at or above the
 * study's smallest; otherwise they are all shifted past the target's largest (the same shift for the
 * whole table, so their order is kept), and every column referencing them is shifted alike. A service
 * profile the study uses is the target's profile of the same name where there is one; a workstation
 * holding the study's files is copied unless the target knows it by its name already.
 *
 * The audit log: the study's entries are appended to the target's chain in their order, each with its
 * previous entry's hash and its own hash computed again (audit-hash.ts; the hash covers the entry's
 * number and the hash before it, both of which change when entries move from one chain to another).
 * What an entry says (when, what, about which study, its detail) is copied unchanged.
 *
 * Numbers written inside JSON text that the product acts on (a curation act's before and after, a
 * recording's provenance notes: references.ts) are renumbered alike; an audit entry's and an event's
 * detail keep the numbers the study had where they were written (the digest of a curation act in its
 * audit entry was computed over those).
 */
import { auditEntryHash, type ChainedFields } from '../audit-hash';
import type { Queryable, SqlValue } from '../store/types';
import { PROFILES, WORKSTATIONS, type CopyPlan, type TablePlan } from './plan';
import { JSON_REFERENCES, renumberAt } from './references';

const AUDIT = 'audit_log';

type Row = Record<string, unknown>;

export interface TableCount {
  readonly table: string;
  /** The study's rows in the source. */
  readonly before: number;
  /** The study's rows in the target after the copy. */
  readonly after: number;
}

export interface StudyCopy {
  /** The study's id in the target. */
  readonly studyId: number;
  readonly counts: readonly TableCount[];
  /** Numbered tables whose rows got new numbers, with the shift. */
  readonly renumbered: Readonly<Record<string, number>>;
  /** Profiles the study uses that the target already had (by name). */
  readonly profilesMatched: readonly string[];
}

const q = (name: string) => `"${name}"`;
const params = (condition: string, studyId: number): number[] =>
  Array.from({ length: condition.split('?').length - 1 }, () => studyId);

const value = (v: unknown): SqlValue =>
  v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : (v as SqlValue);

const countOf = async (db: Queryable, plan: TablePlan, studyId: number): Promise<number> =>
  (
    await db.get<{ n: number }>(
      `SELECT count(*) AS n FROM ${q(plan.table)} WHERE ${plan.member}`,
      params(plan.member, studyId),
    )
  )?.n ?? 0;

/** The shift of a numbered table's ids: none unless the target already has a row at or above the study's first. */
const shiftOf = async (from: Queryable, to: Queryable, plan: TablePlan, studyId: number) => {
  const low = await from.get<{ n: number | null }>(
    `SELECT min(id) AS n FROM ${q(plan.table)} WHERE ${plan.member}`,
    params(plan.member, studyId),
  );
  const high = await to.get<{ n: number | null }>(`SELECT max(id) AS n FROM ${q(plan.table)}`);
  const first = Number(low?.n ?? 0);
  const last = high?.n === null || high?.n === undefined ? null : Number(high.n);
  return last !== null && last >= first ? last - first + 1 : 0;
};

interface Numbering {
  readonly shift: Map<string, number>;
  readonly profiles: Map<number, number>;
  /** Some row gets a new number. */
  readonly any: boolean;
}

/** The target's number for `v`, a value of `table.column`. */
const renumber = (plan: CopyPlan, n: Numbering, table: string, column: string, v: number): number => {
  if (table === PROFILES && column === 'id') return n.profiles.get(v) ?? v;
  const t = plan.tables.find((x) => x.table === table);
  if (!t) return v;
  if (column === 'id' && t.numbered) return v + (n.shift.get(table) ?? 0);
  const via = t.references.find(
    (r) => r.column === column && !(r.toTable === table && r.toColumn === column),
  );
  return via ? renumber(plan, n, via.toTable, via.toColumn, v) : v;
};

const matchProfiles = async (
  from: Queryable,
  to: Queryable,
  plan: TablePlan,
  studyId: number,
  shift: number,
): Promise<{ map: Map<number, number>; matched: string[] }> => {
  const map = new Map<number, number>();
  const matched: string[] = [];
  for (const p of await from.all<{ id: number; name: string }>(
    `SELECT id, name FROM ${q(PROFILES)} WHERE ${plan.member} ORDER BY id`,
    params(plan.member, studyId),
  )) {
    const there = await to.get<{ id: number }>(`SELECT id FROM ${q(PROFILES)} WHERE name = ?`, [p.name]);
    if (there) matched.push(p.name);
    map.set(Number(p.id), there ? Number(there.id) : Number(p.id) + shift);
  }
  return { map, matched };
};

/** The numbers inside the row's JSON columns (JSON_REFERENCES), renumbered in place. */
const renumberJson = (ctx: { plan: CopyPlan; numbering: Numbering }, table: string, row: Row): void => {
  for (const j of JSON_REFERENCES.filter((x) => x.table === table)) {
    const text = row[j.column];
    if (typeof text !== 'string') continue;
    const parsed = JSON.parse(text) as unknown;
    const moved = renumberAt(parsed, j.path, (v) => renumber(ctx.plan, ctx.numbering, j.toTable, 'id', v));
    row[j.column] = JSON.stringify(moved);
  }
};

interface Later {
  readonly table: string;
  readonly column: string;
  readonly id: number;
  readonly value: number;
}

/** Placeholders per statement: below SQLite's limit (32,766) and PostgreSQL's (65,535). */
const MAX_PARAMS = 30_000;
const MAX_ROWS = 500;

/**
 * Rows inserted several to a statement (one round trip to a server per batch, not per row), in their
 * order. The audit log's rows go one at a time: each must see the one before it in the chain.
 */
const batchedInsert = (to: Queryable, plan: TablePlan) => {
  const size =
    plan.table === AUDIT ? 1 : Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / plan.columns.length)));
  const head = `INSERT INTO ${q(plan.table)} (${plan.columns.map(q).join(', ')}) VALUES `;
  const tuple = `(${plan.columns.map(() => '?').join(', ')})`;
  let rows: Row[] = [];
  const flush = async () => {
    if (!rows.length) return;
    const batch = rows;
    rows = [];
    await to.run(
      head + batch.map(() => tuple).join(', '),
      batch.flatMap((row) => plan.columns.map((c) => value(row[c]))),
    );
  };
  return {
    add: async (row: Row) => {
      rows.push(row);
      if (rows.length >= size) await flush();
    },
    flush,
  };
};

/** Copies one table's rows of the study; self-references to rows not copied yet are set afterwards. */
const copyTable = async (
  from: Queryable,
  to: Queryable,
  ctx: { plan: CopyPlan; numbering: Numbering; studyId: number; later: Later[]; chain: { prev: string } },
  t: TablePlan,
  alreadyThere: (source: Row) => boolean,
): Promise<void> => {
  const copiedIds = new Set<number>();
  const insert = batchedInsert(to, t);
  const selfRefs = t.references.filter((r) => r.toTable === t.table);
  for await (const source of from.iterate<Row>(
    `SELECT ${t.columns.map(q).join(', ')} FROM ${q(t.table)} WHERE ${t.member} ORDER BY ${t.primaryKey.map(q).join(', ')}`,
    params(t.member, ctx.studyId),
  )) {
    if (alreadyThere(source)) continue;
    const row: Row = { ...source };
    for (const c of t.columns) {
      const v = source[c];
      if (typeof v === 'number' || typeof v === 'bigint')
        row[c] = renumber(ctx.plan, ctx.numbering, t.table, c, Number(v));
    }
    if (ctx.numbering.any) renumberJson(ctx, t.table, row);
    for (const r of selfRefs) {
      const target = source[r.column];
      if (target === null || target === undefined || copiedIds.has(Number(target))) continue;
      ctx.later.push({
        table: t.table,
        column: r.column,
        id: row['id'] as number,
        value: row[r.column] as number,
      });
      row[r.column] = null;
    }
    if (t.table === AUDIT) {
      row['prev_hash'] = ctx.chain.prev;
      row['hash'] = auditEntryHash(ctx.chain.prev, row as unknown as ChainedFields);
      ctx.chain.prev = row['hash'] as string;
    }
    await insert.add(row);
    if (t.numbered) copiedIds.add(Number(source['id']));
  }
  await insert.flush();
};

/** The workstations the target already has, when the study's rows name any. */
const knownWorkstations = async (to: Queryable, plan: CopyPlan): Promise<Set<string>> =>
  plan.tables.some((t) => t.table === WORKSTATIONS)
    ? new Set((await to.all<{ name: string }>(`SELECT name FROM ${q(WORKSTATIONS)}`)).map((r) => r.name))
    : new Set();

/**
 * Copies study `studyId` of `from` into `to` (a transaction's handle on the target, which must not
 * have a study of the same name: the caller checks), and counts its rows on both sides.
 */
export const copyStudy = async (
  from: Queryable,
  to: Queryable,
  plan: CopyPlan,
  studyId: number,
): Promise<StudyCopy> => {
  const shift = new Map<string, number>();
  for (const t of plan.tables.filter((x) => x.numbered))
    shift.set(t.table, await shiftOf(from, to, t, studyId));
  const profilesPlan = plan.tables.find((t) => t.table === PROFILES);
  const profiles = profilesPlan
    ? await matchProfiles(from, to, profilesPlan, studyId, shift.get(PROFILES) ?? 0)
    : { map: new Map<number, number>(), matched: [] };
  const numbering: Numbering = {
    shift,
    profiles: profiles.map,
    any: [...shift.values()].some((s) => s !== 0),
  };
  const last = await to.get<{ hash: string | null }>(`SELECT hash FROM ${AUDIT} ORDER BY id DESC LIMIT 1`);
  const ctx = { plan, numbering, studyId, later: [] as Later[], chain: { prev: last?.hash ?? '' } };

  const matched = new Set(profiles.matched);
  const known = await knownWorkstations(to, plan);
  const alreadyThere = (t: TablePlan) => (row: Row) =>
    (t.table === PROFILES && matched.has(row['name'] as string)) ||
    (t.table === WORKSTATIONS && known.has(row['name'] as string));
  for (const t of plan.tables) await copyTable(from, to, ctx, t, alreadyThere(t));
  for (const l of ctx.later)
    await to.run(`UPDATE ${q(l.table)} SET ${q(l.column)} = ? WHERE id = ?`, [l.value, l.id]);
  for (const t of plan.tables.filter((x) => x.numbered)) {
    const catchUp = to.dialect.identityCatchUp(t.table, 'id');
    if (catchUp) await to.run(catchUp);
  }
  const newStudyId = renumber(plan, numbering, 'studies', 'id', studyId);
  const counts: TableCount[] = [];
  for (const t of plan.tables)
    counts.push({
      table: t.table,
      before: await countOf(from, t, studyId),
      after: await countOf(to, t, newStudyId),
    });
  return {
    studyId: newStudyId,
    counts,
    renumbered: Object.fromEntries(
      [...shift].filter(
        ([t, s]) => s !== 0 && (t !== PROFILES || profiles.map.size > profiles.matched.length),
      ),
    ),
    profilesMatched: profiles.matched,
  };
};
