/**
 * Indexes for the recordings table of a large study (recordings.page, main/db/repos/recordings-view.repo.ts):
 * - by path within a study, holding what a search reads (path, session, participant), so sorting by
 *   file walks it and a search reads it instead of the table;
 * - each participant's recordings in id order (the study alongside, constant per participant, so the
 *   walk never reads the table), so sorting by participant walks participants in code order instead
 *   of sorting a whole study;
 * - the few unfinished analyses (processing, failed, late), so the "completed", "in progress" and
 *   "needs attention" filters find them without probing every recording's analyses.
 * About 0.2–1.5 s → a few ms a page at 100,000 recordings: test/bench/recordings.bench.ts.
 */
import type { Migration } from '../migrate';

export const m0050: Migration = {
  version: 50,
  name: '0050-recordings-table',
  up(db) {
    db.exec(`
      CREATE INDEX recordings_by_study_path ON recordings (study_id, source_path, session_label, participant_id);
      CREATE INDEX recordings_by_participant_id ON recordings (participant_id, study_id);
      CREATE INDEX analyses_unfinished ON analyses (state, recording_id) WHERE state NOT IN ('completed', 'not_requested');
    `);
  },
};
