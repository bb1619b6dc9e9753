/**
 * Curation: the researcher mends a study and every act is kept.
 *
 * - `recordings.excluded_at` / `excluded_reason`: a recording excluded from analysis, with why. It stays
 *   in the study and in exports (marked), but no longer counts as the participant's first or latest
 *   recording, nor in baselines or recency.
 * - `recordings.provenance`: JSON array of notes about the recording's history that an analyst must see
 *   (e.g. "reassigned after upload: the service analysed it under another participant's account").
 * - `curation_acts`: one row per act (reassign, exclude, restore, delete a never-sent recording, send a
 *   locally refused file anyway, undo),
 *   with who, when, the reason and the recording's state before and after as JSON. The audit log gets
 *   an entry per act naming the act's id and a digest of this row, so the hash chain vouches for what is
 *   here while codes, labels and reasons (free text) stay out of the audit log. Acts are never changed
 *   (a trigger refuses UPDATE); they go with their study when the study is deleted.
 * - `recordings_by_content`: the same audio is looked up across participants and studies before upload
 *   (0010's index starts with the participant).
 * - The participant figures of migration 0040 are kept by triggers; they are created again so that an
 *   excluded recording does not set a participant's first or last recording (it still counts as one of
 *   their recordings), and so that excluding or restoring one recomputes them.
 */
import type { Migration } from '../migrate';

// Written out rather than imported: a released migration must not change when the repositories do.
const ATTENTION = `('refused_locally', 'rejected', 'upload_uncertain', 'duplicate')`;

/** Migration 0110's last usable recording, now without excluded recordings. */
const refreshUsable = (pid: string) => `
  UPDATE participants SET last_usable_at = (
    SELECT max(r.recorded_at) FROM recordings r WHERE r.participant_id = ${pid} AND r.upload_state = 'uploaded'
      AND r.excluded_at IS NULL
      AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'completed')
  ) WHERE id = ${pid};`;

const refresh = (pid: string) => `
  UPDATE participants SET (rec_count, rec_attention, first_recording_at, last_recording_at) = (
    SELECT count(*), coalesce(sum(r.upload_state IN ${ATTENTION}), 0),
           min(CASE WHEN r.excluded_at IS NULL THEN r.recorded_at END),
           max(CASE WHEN r.excluded_at IS NULL THEN r.recorded_at END)
    FROM recordings r WHERE r.participant_id = ${pid} AND r.upload_state <> 'cancelled'
  ), rec_done = (
    SELECT count(*) FROM recordings r WHERE r.participant_id = ${pid} AND r.upload_state = 'uploaded' AND NOT EXISTS (
      SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state NOT IN ('completed', 'not_requested'))
  ) WHERE id = ${pid};`;

export const m0120: Migration = {
  version: 120,
  name: '0120-curation',
  up(db) {
    db.exec(`
      ALTER TABLE recordings ADD COLUMN excluded_at TEXT;        -- excluded from analysis; NULL: included
      ALTER TABLE recordings ADD COLUMN excluded_reason TEXT;    -- the researcher's reason
      ALTER TABLE recordings ADD COLUMN provenance TEXT;         -- JSON array of {at, note, ...}

      CREATE TABLE curation_acts (
        id             INTEGER PRIMARY KEY,
        study_id       INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        at             TEXT NOT NULL,
        who            TEXT NOT NULL,             -- the operating-system user who did it
        act            TEXT NOT NULL CHECK (act IN ('reassign', 'exclude', 'restore', 'delete_unsent', 'send_anyway', 'undo')),
        recording_id   INTEGER,                   -- not a foreign key: a deleted recording keeps its acts
        reason         TEXT,
        before         TEXT NOT NULL,             -- JSON
        after          TEXT NOT NULL,             -- JSON
        undoes         INTEGER REFERENCES curation_acts(id),
        audit_id       INTEGER
      ) STRICT;
      CREATE INDEX recordings_by_content ON recordings (content_sha256);

      CREATE INDEX curation_by_recording ON curation_acts (recording_id, id);
      CREATE INDEX curation_by_study ON curation_acts (study_id, id);
      CREATE UNIQUE INDEX curation_undone_once ON curation_acts (undoes) WHERE undoes IS NOT NULL;
      CREATE TRIGGER curation_acts_no_update BEFORE UPDATE ON curation_acts
        WHEN NOT (OLD.audit_id IS NULL AND NEW.audit_id IS NOT NULL AND NEW.before IS OLD.before AND NEW.after IS OLD.after
                  AND NEW.reason IS OLD.reason AND NEW.act IS OLD.act AND NEW.at IS OLD.at AND NEW.who IS OLD.who
                  AND NEW.recording_id IS OLD.recording_id AND NEW.undoes IS OLD.undoes AND NEW.study_id IS OLD.study_id)
      BEGIN SELECT RAISE(ABORT, 'curation_acts are never changed'); END;

      DROP TRIGGER participant_stats_rec_insert;
      DROP TRIGGER participant_stats_rec_delete;
      DROP TRIGGER participant_stats_rec_update;
      CREATE TRIGGER participant_stats_rec_insert AFTER INSERT ON recordings BEGIN ${refresh('NEW.participant_id')} END;
      CREATE TRIGGER participant_stats_rec_delete AFTER DELETE ON recordings BEGIN ${refresh('OLD.participant_id')} END;
      CREATE TRIGGER participant_stats_rec_update AFTER UPDATE OF upload_state, recorded_at, participant_id, excluded_at ON recordings
        WHEN OLD.upload_state IS NOT NEW.upload_state OR OLD.recorded_at IS NOT NEW.recorded_at
          OR OLD.participant_id IS NOT NEW.participant_id OR OLD.excluded_at IS NOT NEW.excluded_at
      BEGIN
        ${refresh('NEW.participant_id')}
        ${refresh('OLD.participant_id')}
      END;

      -- The last usable recording (migration 0110) leaves excluded recordings out, and follows exclusion.
      DROP TRIGGER participant_usable_rec_update;
      CREATE TRIGGER participant_usable_rec_update AFTER UPDATE OF upload_state, recorded_at, participant_id, excluded_at ON recordings
        WHEN OLD.upload_state IS NOT NEW.upload_state OR OLD.recorded_at IS NOT NEW.recorded_at
          OR OLD.participant_id IS NOT NEW.participant_id OR OLD.excluded_at IS NOT NEW.excluded_at
      BEGIN
        ${refreshUsable('NEW.participant_id')}
        ${refreshUsable('OLD.participant_id')}
      END;
      DROP TRIGGER participant_usable_analysis_insert;
      DROP TRIGGER participant_usable_analysis_delete;
      DROP TRIGGER participant_usable_analysis_update;
      CREATE TRIGGER participant_usable_analysis_insert AFTER INSERT ON analyses WHEN NEW.state = 'completed'
      BEGIN ${refreshUsable('(SELECT participant_id FROM recordings WHERE id = NEW.recording_id)')} END;
      CREATE TRIGGER participant_usable_analysis_delete AFTER DELETE ON analyses WHEN OLD.state = 'completed'
      BEGIN ${refreshUsable('(SELECT participant_id FROM recordings WHERE id = OLD.recording_id)')} END;
      CREATE TRIGGER participant_usable_analysis_update AFTER UPDATE OF state ON analyses
        WHEN (OLD.state = 'completed') <> (NEW.state = 'completed')
      BEGIN ${refreshUsable('(SELECT participant_id FROM recordings WHERE id = NEW.recording_id)')} END;
      ${refreshUsable('participants.id').replace(/WHERE id = participants\.id;$/, ';')}
    `);
  },
};
