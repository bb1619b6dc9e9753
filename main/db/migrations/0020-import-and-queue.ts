/**
 * Import and queue state: where a converted copy was written (the original stays untouched), the local
 * verdict of each file, which earlier recording a duplicate repeats and whether the researcher insisted;
 * per batch the service profile, the conversion switch, where its files came from and why it is paused;
 * per participant when its account was created; and a small settings table for the researcher's tuning
 * of the queue and the poller (persisted so a restart resumes with the same settings).
 */
import type { Migration } from '../migrate';

export const m0020: Migration = {
  version: 20,
  name: '0020-import-and-queue',
  up(db) {
    db.exec(`
      ALTER TABLE recordings ADD COLUMN upload_path TEXT;        -- converted copy sent instead of source_path; NULL: the source itself
      ALTER TABLE recordings ADD COLUMN verdict TEXT;            -- JSON LocalVerdict from import
      ALTER TABLE recordings ADD COLUMN duplicate_of INTEGER REFERENCES recordings(id) ON DELETE SET NULL;
      ALTER TABLE recordings ADD COLUMN duplicate_override INTEGER NOT NULL DEFAULT 0 CHECK (duplicate_override IN (0, 1));

      ALTER TABLE batches ADD COLUMN label TEXT NOT NULL DEFAULT '';
      ALTER TABLE batches ADD COLUMN convert_wav INTEGER NOT NULL DEFAULT 0 CHECK (convert_wav IN (0, 1));
      ALTER TABLE batches ADD COLUMN pause_reason TEXT;          -- JSON ApiError or researcher's pause
      ALTER TABLE batches ADD COLUMN usage_before TEXT;          -- JSON Usage read when the batch was started
      ALTER TABLE batches ADD COLUMN usage_after TEXT;           -- JSON Usage read when it finished

      ALTER TABLE participants ADD COLUMN account_created_at TEXT;

      CREATE TABLE settings (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL                                     -- JSON
      ) STRICT;

      CREATE INDEX recordings_by_batch ON recordings (batch_id, upload_state);
    `);
  },
};
