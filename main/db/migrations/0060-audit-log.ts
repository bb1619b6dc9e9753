/**
 * The audit log: an append-only local record of what a data protection officer asks about: exports
 * written, API keys added, replaced or removed, studies archived or deleted, diagnostic logging
 * switched on or off. Entries hold ids, the study's or profile's name at the time, counts and plain
 * words; never a key, a participant code or a file path. Ids are not foreign keys, so the trail
 * outlives a deleted study. Triggers forbid changing or deleting an entry, as for event_log.
 */
import type { Migration } from '../migrate';

export const m0060: Migration = {
  version: 60,
  name: '0060-audit-log',
  up(db) {
    db.exec(`
      CREATE TABLE audit_log (
        id          INTEGER PRIMARY KEY,
        at          TEXT NOT NULL,
        kind        TEXT NOT NULL,
        profile_id  INTEGER,
        study_id    INTEGER,
        subject     TEXT,                      -- the study's or profile's name when it happened
        detail      TEXT NOT NULL DEFAULT '{}' -- JSON: counts, ids and plain words only
      ) STRICT;
      CREATE INDEX audit_by_study ON audit_log (study_id, id);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    `);
  },
};
