/**
 * The F0 track of each locally measured recording (main/acoustics/pitch-track.ts), drawn on the
 * recording page's spectrogram: kept with the measures it comes from (same engine run, same pitch
 * range), removed with them when the recording is measured again. Recordings measured before this
 * migration have none until they are measured again.
 */
import type { Migration } from '../migrate';

export const m0160: Migration = {
  version: 160,
  name: '0160-local-pitch-tracks',
  up(db) {
    db.exec(`
      CREATE TABLE local_pitch_tracks (
        recording_id  INTEGER PRIMARY KEY REFERENCES local_measurements(recording_id) ON DELETE CASCADE,
        first_time    REAL NOT NULL,     -- seconds: the time of frame 0
        step          REAL NOT NULL,     -- seconds between frames
        frames        INTEGER NOT NULL,
        f0            BLOB NOT NULL      -- float32 little-endian Hz per frame, 0 = unvoiced
      );
    `);
  },
};
