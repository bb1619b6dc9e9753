/**
 * What the workstation's screens need: how often a study's participants are expected to record (for
 * "overdue"), and indexes for the paged, sorted recordings table of a large study.
 */
import type { Migration } from '../migrate';

export const m0030: Migration = {
  version: 30,
  name: '0030-workstation-views',
  up(db) {
    db.exec(`
      ALTER TABLE studies ADD COLUMN session_interval_days INTEGER NOT NULL DEFAULT 7 CHECK (session_interval_days BETWEEN 1 AND 365);
      CREATE INDEX recordings_by_study_time ON recordings (study_id, recorded_at, id);
      CREATE INDEX participants_by_study_code ON participants (study_id, code COLLATE NOCASE);
    `);
  },
};
