/**
 * What the participant page and the cohort view keep:
 *
 * - `participant_attributes`: researcher-defined attributes of a participant (arm, site, diagnosis or any
 *   key), one text value per key, entered in the window, imported from a CSV or set from the command
 *   line. The cohort view groups and colours participants by them.
 * - `study_chart_choices`: what the researcher chose to see on a study's charts (the participant page's
 *   measures and axis), as JSON checked by the contract on the way in and out, one row per study and view.
 */
import type { Migration } from '../migrate';

export const m0140: Migration = {
  version: 140,
  name: 'participant attributes and chart choices',
  up(db) {
    db.exec(`
      CREATE TABLE participant_attributes (
        participant_id  INTEGER NOT NULL REFERENCES participants(id) ON DELETE CASCADE,
        key             TEXT NOT NULL,
        value           TEXT NOT NULL,
        updated_at      TEXT NOT NULL,
        PRIMARY KEY (participant_id, key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX participant_attributes_by_key ON participant_attributes (key, value);

      CREATE TABLE study_chart_choices (
        study_id    INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        view        TEXT NOT NULL,
        choice      TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        PRIMARY KEY (study_id, view)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
