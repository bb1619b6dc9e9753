/**
 * The migrations after 180, written once for both engines (main/db/migrate.ts `StoreMigration`), in
 * order. SQLite applies them after its own (../index.ts); PostgreSQL after its baseline
 * (../../store/migrate-store.ts). Released migrations are never edited: add a new one.
 */
import type { StoreMigration } from '../../migrate';
import { m0190 } from './0190-study-sites';
import { m0200 } from './0200-workstations';
import { m0210 } from './0210-audit-identities';
import { m0220 } from './0220-request-budgets';
import { m0240 } from './0240-curation-identities-unchanged';

export const STORE_MIGRATIONS: readonly StoreMigration[] = [m0190, m0200, m0210, m0220, m0240];
