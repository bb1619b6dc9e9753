/**
 * The local acoustic measures (main/acoustics/, docs/acoustics.md) and the recording quality control of
 * each recording, computed on this machine. `local_measurements` holds one row per measured recording:
 * the provenance (engine version, settings as JSON with the pitch range, the audio file read, when), the
 * quality control, or the problem that kept it from being measured. `local_measures` holds one row per
 * measure key (main/acoustics/measures.ts), NULL when the measure is undefined for the recording (no
 * voiced frame, no pause).
 */
import type { Migration } from '../migrate';

export const m0150: Migration = {
  version: 150,
  name: '0150-local-measures',
  up(db) {
    db.exec(`
      CREATE TABLE local_measurements (
        recording_id            INTEGER PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
        measured_at             TEXT NOT NULL,
        engine_version          TEXT NOT NULL,
        settings                TEXT NOT NULL,      -- JSON AcousticSettings: pitch floor and ceiling (Hz)
        audio_path              TEXT NOT NULL,
        problem                 TEXT,               -- JSON problem when the recording could not be measured
        qc_verdict              TEXT CHECK (qc_verdict IN ('good', 'usable', 'poor')),
        qc_reasons              TEXT,               -- JSON array of sentences
        qc_duration_seconds     REAL,
        qc_snr_db               REAL,
        qc_clipping_ratio       REAL,
        qc_peak_dbfs            REAL,
        qc_rms_dbfs             REAL,
        qc_dc_offset            REAL,
        qc_long_silences        INTEGER,
        qc_long_silence_seconds REAL
      );
      CREATE TABLE local_measures (
        recording_id  INTEGER NOT NULL REFERENCES local_measurements(recording_id) ON DELETE CASCADE,
        measure       TEXT NOT NULL,
        value         REAL,
        PRIMARY KEY (recording_id, measure)
      ) WITHOUT ROWID;
    `);
  },
};
