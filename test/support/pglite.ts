/**
 * PGlite in tests. Starting an empty PGlite runs PostgreSQL's initdb in WebAssembly: about 7 s of CPU,
 * and several times that in wall time on a loaded machine. `migratedPglite` starts one from a saved data
 * directory instead (about 1 s), with the study schema already applied: the first call on this computer
 * creates, migrates and saves it in the temporary folder, under a name that changes with PGlite's
 * version and with the PostgreSQL migrations, so a stale one is never loaded.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { POSTGRES_BASELINE } from '../../main/db/migrations/postgres';
import { STORE_MIGRATIONS } from '../../main/db/migrations/store';
import { POSTGRES } from '../../main/db/store/dialect';
import { migratePostgres } from '../../main/db/store/migrate-store';
import { openPgliteStore } from '../../main/db/store/pglite-store';
import type { Store } from '../../main/db/store/types';

/** Time for a file's `beforeAll` that starts PGlite (an empty one; a migrated one needs far less). */
export const PGLITE_START_TIMEOUT = 120_000;

const pgliteVersion = (): string =>
  (
    JSON.parse(
      readFileSync(join(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
    ) as { version: string }
  ).version;

const savedPath = (): string => {
  const hash = createHash('sha256')
    .update(pgliteVersion())
    .update(JSON.stringify(POSTGRES_BASELINE))
    .update(JSON.stringify(STORE_MIGRATIONS.map((m) => [m.version, m.name, m.statements(POSTGRES)])))
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), `voicescope-pglite-study-${hash}.tar`);
};

/** A PGlite with the study schema at its latest version, as a store. */
export const migratedPglite = async (): Promise<{ store: Store; db: PGlite }> => {
  const path = savedPath();
  if (existsSync(path)) return openPgliteStore(new Blob([readFileSync(path)]));
  const opened = await openPgliteStore();
  await migratePostgres(opened.store);
  const image = Buffer.from(await (await opened.db.dumpDataDir('none')).arrayBuffer());
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, image);
  renameSync(partial, path);
  return opened;
};
