/**
 * A curation act's member and workstation (migration 0210) are as unchangeable as the rest of the act:
 * on SQLite the trigger that refuses a change names each column, and did not name these two (nor the
 * act's own number); PostgreSQL's trigger compares whole rows already (the dialect's
 * `curationActsUnchanged`). The audit log's trigger refuses every change whatever the column.
 */
import type { StoreMigration } from '../../migrate';

export const m0240: StoreMigration = {
  version: 240,
  name: '0240-curation-identities-unchanged',
  statements: (d) => [...d.curationActsUnchanged],
};
