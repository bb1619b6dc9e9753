/**
 * Every value the service returns is kept, and what is odd about it is recorded:
 *
 *   - `data_quality_flags`: one row per flag, with where it came from (`poll`: an analysis answer;
 *     `receipt`: the upload receipt read on its own; `receipt_check`: the receipt compared with what was
 *     sent and the workstation's own probe), the analysis type it belongs to (NULL: the recording's
 *     metadata), its code (shared/api/data-quality.ts), the path in the answer, the measures it is about
 *     (JSON array of catalogue keys), what was received and what was expected. A later poll replaces
 *     the flags of the types it reads, so the flags always describe the values stored.
 *   - `analyses.raw` and `analyses.received_status`: each analysis object exactly as received (JSON
 *     text, unknown members included) and its `status` member as received.
 *   - `unlisted_analyses`: analysis types the API version does not list, with their raw JSON.
 *   - the receipt's integer audio facts (`svc_size_bytes`, `svc_sample_rate_hz`, `svc_bit_rate_bps`)
 *     become REAL: a fraction or a whole number beyond 2^53 is kept as received (and flagged) instead of
 *     being refused by the STRICT INTEGER column, which left a paid-for upload unrecorded. Changing a
 *     column's declared type from INTEGER to REAL does not change how SQLite stores the rows already
 *     there (a REAL column keeps whole numbers in integer form on disk), so the table's definition is
 *     rewritten in place (SQLite's documented procedure for such changes, "ALTER TABLE", section 7)
 *     rather than copying the table, which with foreign keys on would cascade into its analyses and
 *     values. `PRAGMA integrity_check` passes afterwards (test/integration/db/migration-0080.test.ts).
 */
import type { Migration } from '../migrate';

const AUDIO_FACTS = ['svc_size_bytes', 'svc_sample_rate_hz', 'svc_bit_rate_bps'] as const;

export const m0080: Migration = {
  version: 80,
  name: '0080-data-quality',
  up(db) {
    db.exec(`
      CREATE TABLE data_quality_flags (
        id            INTEGER PRIMARY KEY,
        recording_id  INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        origin        TEXT NOT NULL CHECK (origin IN ('poll', 'receipt', 'receipt_check')),
        analysis_type TEXT,
        code          TEXT NOT NULL,
        path          TEXT NOT NULL,
        measures      TEXT NOT NULL DEFAULT '[]',
        received      TEXT,
        expected      TEXT NOT NULL,
        flagged_at    TEXT NOT NULL
      ) STRICT;
      CREATE INDEX data_quality_by_recording ON data_quality_flags (recording_id, origin, analysis_type);

      CREATE TABLE unlisted_analyses (
        recording_id  INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        name          TEXT NOT NULL,
        raw           TEXT NOT NULL,
        received_at   TEXT NOT NULL,
        PRIMARY KEY (recording_id, name)
      ) STRICT, WITHOUT ROWID;

      ALTER TABLE analyses ADD COLUMN raw TEXT;
      ALTER TABLE analyses ADD COLUMN received_status TEXT;
    `);
    const { sql } = db
      .prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'recordings'`)
      .get() as {
      sql: string;
    };
    let next = sql;
    for (const c of AUDIO_FACTS) {
      const declared = new RegExp(`(\\b${c}\\s+)INTEGER\\b`);
      if (!declared.test(next)) throw new Error(`0080: recordings.${c} is not declared INTEGER`);
      next = next.replace(declared, '$1REAL');
    }
    const version = db.pragma('schema_version', { simple: true }) as number;
    // better-sqlite3 opens connections in SQLite's defensive mode, which forbids writing the schema table.
    db.unsafeMode(true);
    try {
      db.pragma('writable_schema = ON');
      db.prepare(`UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = 'recordings'`).run(next);
      db.pragma(`schema_version = ${version + 1}`);
      db.pragma('writable_schema = RESET');
    } finally {
      db.unsafeMode(false);
    }
  },
};
