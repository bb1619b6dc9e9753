/**
 * Honest change statistics: each study's settings for them.
 *
 *   - `studies.baseline_sessions`: k, the sessions a baseline needs (NULL: the default, 3).
 *   - `study_reliability`: a test-retest reliability the study set for a measure, overriding the
 *     documented default (shared/reliability.ts), or giving one to a measure that has none (a service
 *     score whose reliability the study estimated itself). 0 ≤ r < 1.
 */
import type { Migration } from '../migrate';

export const m0130: Migration = {
  version: 130,
  name: '0130-change-statistics',
  up(db) {
    db.exec(`
      ALTER TABLE studies ADD COLUMN baseline_sessions INTEGER CHECK (baseline_sessions BETWEEN 1 AND 20);

      CREATE TABLE study_reliability (
        study_id     INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        measure_key  TEXT NOT NULL,
        r            REAL NOT NULL CHECK (r >= 0 AND r < 1),
        note         TEXT NOT NULL DEFAULT '',
        set_at       TEXT NOT NULL,
        PRIMARY KEY (study_id, measure_key)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
