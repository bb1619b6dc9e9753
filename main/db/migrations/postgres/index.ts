/**
 * PostgreSQL's schema: a baseline equal to SQLite's at schema 180, recorded as version 180 in the
 * version table; every later migration is written once for both engines (main/db/store/migrate-store.ts).
 */
import { BASELINE_INDEXES, BASELINE_TABLES } from './0180-baseline-tables';
import { BASELINE_TRIGGERS } from './0180-baseline-triggers';

export const POSTGRES_BASELINE_VERSION = 180;
export const POSTGRES_BASELINE: readonly string[] = [
  ...BASELINE_TABLES,
  ...BASELINE_INDEXES,
  ...BASELINE_TRIGGERS,
];
