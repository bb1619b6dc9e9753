/**
 * Several workstations on one study. `workstations`: each machine that opens the study (its name is
 * chosen once per workspace and kept there), the database login that runs it, when it was first and
 * last seen (the database's clock). `recording_files`: which workstation holds a recording's file (the
 * path and SHA-256 it found there): the importing one, and any other that found the same file at the
 * same path (a shared drive). `recordings.claimed_by` and `lease_until`: the workstation sending an
 * upload and until when its claim holds unless renewed.
 */
import type { StoreMigration } from '../../migrate';

export const m0200: StoreMigration = {
  version: 200,
  name: '0200-workstations',
  statements: (d) => [
    `CREATE TABLE workstations (
      name TEXT PRIMARY KEY, login TEXT, first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL)`,
    `CREATE TABLE recording_files (
      recording_id ${d.integerType} NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
      workstation TEXT NOT NULL REFERENCES workstations(name) ON DELETE CASCADE,
      path TEXT NOT NULL, sha256 TEXT NOT NULL, checked_at TEXT NOT NULL,
      PRIMARY KEY (recording_id, workstation))`,
    'CREATE INDEX recording_files_by_workstation ON recording_files (workstation)',
    'ALTER TABLE recordings ADD COLUMN claimed_by TEXT',
    'ALTER TABLE recordings ADD COLUMN lease_until TEXT',
  ],
};
