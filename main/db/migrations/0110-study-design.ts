/**
 * Study design: a study's period and time zone, its visit schedule, each participant's
 * status with its history and an optional baseline date, the researcher's visit overrides, and each
 * participant's last usable recording (for the overdue flags).
 *
 * - `studies.start_date`, `studies.end_date` (YYYY-MM-DD, optional) and `studies.time_zone` (IANA, the
 *   zone in which recordings' calendar days are counted; UTC until the researcher sets one).
 * - `study_visits`: name, target day from the participant's baseline, window before and after (days),
 *   and the visit's place in the schedule (`position`, 1-based, the exports' `visit_index`).
 * - `participants.status` (enrolled, active, completed, withdrawn; existing participants are active, as
 *   the overdue flags treated them until now), `status_on` (date), `status_reason` (withdrawal's reason)
 *   and `baseline_date` (set by the researcher; otherwise derived from the recordings).
 *   `participant_status_history` keeps every change with its date.
 * - `recording_visits`: the researcher's override of a recording's visit (`visit_id` NULL: "no visit").
 * - `participants.last_usable_at`: the latest recording that is uploaded with a completed analysis, kept
 *   by triggers like migration 0040's figures, so the overdue filter stays an index range.
 */
import type { Migration } from '../migrate';

// Written out rather than imported: a released migration must not change when the repositories do.
const refreshUsable = (pid: string) => `
  UPDATE participants SET last_usable_at = (
    SELECT max(r.recorded_at) FROM recordings r WHERE r.participant_id = ${pid} AND r.upload_state = 'uploaded'
      AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'completed')
  ) WHERE id = ${pid};`;

const ofRecording = (recordingId: string) =>
  refreshUsable(`(SELECT participant_id FROM recordings WHERE id = ${recordingId})`);

export const m0110: Migration = {
  version: 110,
  name: '0110-study-design',
  up(db) {
    db.exec(`
      ALTER TABLE studies ADD COLUMN start_date TEXT;
      ALTER TABLE studies ADD COLUMN end_date TEXT;
      ALTER TABLE studies ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';

      CREATE TABLE study_visits (
        id             INTEGER PRIMARY KEY,
        study_id       INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        position       INTEGER NOT NULL CHECK (position >= 1),
        name           TEXT NOT NULL,
        target_day     INTEGER NOT NULL,
        window_before  INTEGER NOT NULL DEFAULT 0 CHECK (window_before >= 0),
        window_after   INTEGER NOT NULL DEFAULT 0 CHECK (window_after >= 0),
        UNIQUE (study_id, position),
        UNIQUE (study_id, name)
      ) STRICT;

      ALTER TABLE participants ADD COLUMN status TEXT NOT NULL DEFAULT 'active'
        CHECK (status IN ('enrolled', 'active', 'completed', 'withdrawn'));
      ALTER TABLE participants ADD COLUMN status_on TEXT;
      ALTER TABLE participants ADD COLUMN status_reason TEXT;
      ALTER TABLE participants ADD COLUMN baseline_date TEXT;
      ALTER TABLE participants ADD COLUMN last_usable_at TEXT;

      CREATE TABLE participant_status_history (
        id              INTEGER PRIMARY KEY,
        participant_id  INTEGER NOT NULL REFERENCES participants(id) ON DELETE CASCADE,
        status          TEXT NOT NULL CHECK (status IN ('enrolled', 'active', 'completed', 'withdrawn')),
        status_on       TEXT NOT NULL,
        reason          TEXT,
        recorded_at     TEXT NOT NULL
      ) STRICT;
      CREATE INDEX participant_status_history_by_participant ON participant_status_history (participant_id, id);

      CREATE TABLE recording_visits (
        recording_id  INTEGER PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
        visit_id      INTEGER REFERENCES study_visits(id) ON DELETE CASCADE,
        set_at        TEXT NOT NULL
      ) STRICT;

      ${refreshUsable('participants.id').replace(/WHERE id = participants\.id;$/, ';')}

      CREATE TRIGGER participant_usable_rec_insert AFTER INSERT ON recordings WHEN NEW.upload_state = 'uploaded'
      BEGIN ${refreshUsable('NEW.participant_id')} END;
      CREATE TRIGGER participant_usable_rec_delete AFTER DELETE ON recordings WHEN OLD.upload_state = 'uploaded'
      BEGIN ${refreshUsable('OLD.participant_id')} END;
      CREATE TRIGGER participant_usable_rec_update AFTER UPDATE OF upload_state, recorded_at, participant_id ON recordings
        WHEN OLD.upload_state IS NOT NEW.upload_state OR OLD.recorded_at IS NOT NEW.recorded_at OR OLD.participant_id IS NOT NEW.participant_id
      BEGIN
        ${refreshUsable('NEW.participant_id')}
        ${refreshUsable('OLD.participant_id')}
      END;
      CREATE TRIGGER participant_usable_analysis_insert AFTER INSERT ON analyses WHEN NEW.state = 'completed'
      BEGIN ${ofRecording('NEW.recording_id')} END;
      CREATE TRIGGER participant_usable_analysis_delete AFTER DELETE ON analyses WHEN OLD.state = 'completed'
      BEGIN ${ofRecording('OLD.recording_id')} END;
      CREATE TRIGGER participant_usable_analysis_update AFTER UPDATE OF state ON analyses
        WHEN (OLD.state = 'completed') <> (NEW.state = 'completed')
      BEGIN ${ofRecording('NEW.recording_id')} END;

      CREATE INDEX participants_by_study_status_usable ON participants (study_id, status, last_usable_at);
    `);
  },
};
