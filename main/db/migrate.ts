/**
 * Versioned schema migrations. Each migration has a version (rising in tens) and an `up` step; the
 * database's `user_version` records the last one applied. Pending steps run in one transaction, so a
 * crash mid-way leaves the database as it was. A database written by a newer Voicescope is refused
 * rather than misread.
 */
import type Database from 'better-sqlite3';
import { SQLITE, type Dialect } from './store/dialect';

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database.Database): void;
}

/**
 * A migration after 180, written once for both engines: its statements, in order, for the engine's
 * dialect (what differs between the engines taken from it). SQL only, no step that reads rows into the
 * program, so each engine applies it inside its own one migration transaction (SQLite's synchronous
 * runner below, PostgreSQL's in ./store/migrate-store.ts).
 */
export interface StoreMigration {
  readonly version: number;
  readonly name: string;
  statements(dialect: Dialect): readonly string[];
}

/** A store migration as a step of SQLite's runner. */
export const onSqlite = (m: StoreMigration): Migration => ({
  version: m.version,
  name: m.name,
  up: (db) => {
    for (const statement of m.statements(SQLITE)) db.exec(statement);
  },
});

export interface MigrationReport {
  readonly from: number;
  readonly to: number;
  readonly applied: readonly string[];
}

export class DatabaseFromFutureError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `This study database was written by a newer Voicescope (schema ${found}; this version knows up to ${known}). Update Voicescope to open it; the file was not changed.`,
    );
    this.name = 'DatabaseFromFutureError';
  }
}

export const schemaVersion = (db: Database.Database): number =>
  db.pragma('user_version', { simple: true }) as number;

export const migrate = (
  db: Database.Database,
  migrations: readonly Migration[],
  target?: number,
): MigrationReport => {
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version <= migrations[i - 1]!.version)
      throw new Error(`migrations out of order at ${migrations[i]!.name}`);
  }
  const latest = migrations.at(-1)?.version ?? 0;
  const to = target ?? latest;
  const from = schemaVersion(db);
  if (from > latest) throw new DatabaseFromFutureError(from, latest);
  const pending = migrations.filter((m) => m.version > from && m.version <= to);
  db.transaction(() => {
    for (const m of pending) m.up(db);
    if (pending.length) db.pragma(`user_version = ${pending.at(-1)!.version}`);
  }).immediate();
  return { from, to: schemaVersion(db), applied: pending.map((m) => m.name) };
};
