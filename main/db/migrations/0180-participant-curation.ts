/**
 * Curation of participants and of the needs-you list:
 *
 * - `curation_acts` gains three acts: `merge` (a participant entered twice: every recording of one moves
 *   to the other, which it is then merged into), `dismiss` (a needs-you item set aside with a reason) and
 *   `status` (a participant's status changed), and a `participant_id` column naming the participant a
 *   participant act concerns (for a merge, the one merged away). SQLite cannot change a CHECK, so the
 *   table is built anew with its rows, indexes and trigger as migration 0120 made them.
 * - `participants.merged_into` / `merged_at`: a participant merged into another is kept (so that undo can
 *   bring it back), but no longer counts: it has no recordings, is never overdue, and has no expected
 *   visits in the exports.
 * - `needs_you_dismissals`: a recording's needs-you item dismissed by a curation act, while the recording
 *   stays in the upload state it was dismissed in (`upload_state`); the act holds who, when and why.
 */
import type { Migration } from '../migrate';

export const m0180: Migration = {
  version: 180,
  name: '0180-participant-curation',
  up(db) {
    db.exec(`
      ALTER TABLE curation_acts RENAME TO curation_acts_0120;
      CREATE TABLE curation_acts (
        id             INTEGER PRIMARY KEY,
        study_id       INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        at             TEXT NOT NULL,
        who            TEXT NOT NULL,             -- the operating-system user who did it
        act            TEXT NOT NULL CHECK (act IN ('reassign', 'exclude', 'restore', 'delete_unsent', 'send_anyway', 'undo',
                                                    'merge', 'dismiss', 'status')),
        recording_id   INTEGER,                   -- not a foreign key: a deleted recording keeps its acts
        reason         TEXT,
        before         TEXT NOT NULL,             -- JSON
        after          TEXT NOT NULL,             -- JSON
        undoes         INTEGER REFERENCES curation_acts(id),
        audit_id       INTEGER,
        participant_id INTEGER                    -- a participant act's participant (not a foreign key either)
      ) STRICT;
      INSERT INTO curation_acts (id, study_id, at, who, act, recording_id, reason, before, after, undoes, audit_id)
        SELECT id, study_id, at, who, act, recording_id, reason, before, after, undoes, audit_id FROM curation_acts_0120;
      DROP TABLE curation_acts_0120;

      CREATE INDEX curation_by_recording ON curation_acts (recording_id, id);
      CREATE INDEX curation_by_study ON curation_acts (study_id, id);
      CREATE INDEX curation_by_participant ON curation_acts (participant_id, id) WHERE participant_id IS NOT NULL;
      CREATE UNIQUE INDEX curation_undone_once ON curation_acts (undoes) WHERE undoes IS NOT NULL;
      CREATE TRIGGER curation_acts_no_update BEFORE UPDATE ON curation_acts
        WHEN NOT (OLD.audit_id IS NULL AND NEW.audit_id IS NOT NULL AND NEW.before IS OLD.before AND NEW.after IS OLD.after
                  AND NEW.reason IS OLD.reason AND NEW.act IS OLD.act AND NEW.at IS OLD.at AND NEW.who IS OLD.who
                  AND NEW.recording_id IS OLD.recording_id AND NEW.undoes IS OLD.undoes AND NEW.study_id IS OLD.study_id
                  AND NEW.participant_id IS OLD.participant_id)
      BEGIN SELECT RAISE(ABORT, 'curation_acts are never changed'); END;

      ALTER TABLE participants ADD COLUMN merged_into INTEGER REFERENCES participants(id);
      ALTER TABLE participants ADD COLUMN merged_at TEXT;

      CREATE TABLE needs_you_dismissals (
        recording_id  INTEGER PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
        upload_state  TEXT NOT NULL,              -- the state whose item was dismissed
        act_id        INTEGER NOT NULL            -- the dismiss act: who, when, why
      ) STRICT;
    `);
  },
};
