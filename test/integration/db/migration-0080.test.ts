/**
 * Migration 0080 (data quality): a study written before it keeps every row, the receipt's integer audio
 * facts accept what a looser service sends (a fraction, a whole number beyond 2^53), the flags and the
 * analysis objects as received are stored and replaced by later polls, and the database stays sound
 * (integrity and foreign keys).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { dqFlag } from '../../../shared/api/data-quality';
import type { RecordingAnalysis } from '../../../shared/api/domain';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { answersAsReceived, flagsOfRecording } from '../../../main/db/repos/data-quality.repo';
import { storeAnalysis } from '../../../main/db/repos/results.repo';
import { sqliteStore } from '../../../main/db/store/sqlite-store';

const dir = mkdtempSync(join(tmpdir(), 'vs-m0080-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A study file at schema 0070 with one uploaded recording, its analyses and a value. */
const studyAt70 = (name: string) => {
  const db = new Database(join(dir, name));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS, 70);
  db.exec(`
    INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', 'now');
    INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'S', 1, 'now');
    INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', 'now');
    INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source,
      upload_state, recording_id, api_version, svc_size_bytes, svc_sample_rate_hz, svc_bit_rate_bps, created_at)
      VALUES (1, 1, 1, '/a.wav', 'f', 10, '2026-01-01T00:00:00.000Z', 'manifest', 'uploaded', 'r-1', 'v1.3', 320044, 16000, 256000, 'now');
    INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES
      (1, 'wellbeing', 'completed', 'now', NULL), (1, 'parkinsons', 'processing', 'now', '2026-01-01T00:01:00.000Z');
    INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num) VALUES (1, 'wb_stress_score', 1, '2026-01-01T00:00:00.000Z', 41);
  `);
  return db;
};

const analysis = (over: Partial<RecordingAnalysis>): RecordingAnalysis => ({
  apiVersion: 'v1.3',
  recordingId: 'r-1',
  accountId: null,
  recordedAt: null,
  uploadedAt: null,
  audio: {
    format: null,
    sizeBytes: null,
    sampleRateHz: null,
    bitRateBps: null,
    durationSeconds: null,
    speechDurationSeconds: null,
  },
  source: 'service',
  outcomes: [],
  ...over,
});

describe('migration 0080 (data quality)', () => {
  it('keeps every row of a study written before it, without cascading into analyses or values', () => {
    const db = studyAt70('keep.sqlite');
    const count = (t: string) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    const before = ['recordings', 'analyses', 'measure_values', 'participants'].map(count);
    migrate(db, MIGRATIONS, 80);
    expect(['recordings', 'analyses', 'measure_values', 'participants'].map(count)).toEqual(before);
    expect(
      db.prepare(`SELECT svc_size_bytes, svc_sample_rate_hz, svc_bit_rate_bps FROM recordings`).get(),
    ).toEqual({
      svc_size_bytes: 320044,
      svc_sample_rate_hz: 16000,
      svc_bit_rate_bps: 256000,
    });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });

  it("stores a receipt's fractional or huge audio facts as received", () => {
    const db = studyAt70('facts.sqlite');
    migrate(db, MIGRATIONS);
    db.prepare(
      `UPDATE recordings SET svc_size_bytes = ?, svc_sample_rate_hz = ?, svc_bit_rate_bps = ? WHERE id = 1`,
    ).run(320044.5, 2 ** 60, 1e300);
    expect(
      db.prepare(`SELECT svc_size_bytes, svc_sample_rate_hz, svc_bit_rate_bps FROM recordings`).get(),
    ).toEqual({
      svc_size_bytes: 320044.5,
      svc_sample_rate_hz: 2 ** 60,
      svc_bit_rate_bps: 1e300,
    });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // Another connection (the export's snapshot reader) sees the new definition too.
    const other = new Database(join(dir, 'facts.sqlite'), { readonly: true });
    expect(other.prepare(`SELECT svc_size_bytes FROM recordings`).get()).toEqual({
      svc_size_bytes: 320044.5,
    });
    other.close();
    db.close();
  });

  it('keeps flags, analysis objects as received and unlisted types; a later poll replaces the flags of what it reads', async () => {
    const db = studyAt70('flags.sqlite');
    const store = sqliteStore(db);
    migrate(db, MIGRATIONS);
    const raw = '{"status":"Processing","indicators":{"pd_score":250}}';
    await storeAnalysis(
      store,
      '2026-01-01T00:01:00.000Z',
      1,
      analysis({
        outcomes: [
          {
            type: 'parkinsons',
            status: 'processing',
            values: { pd_score: 250 },
            receivedStatus: 'Processing',
            raw,
            flags: [
              dqFlag('status_case_normalised', 'analysis.parkinsons.status', 'Processing', 'processing'),
              dqFlag('score_out_of_range', 'analysis.parkinsons.pd_score', 250, '0 to 100', ['pd_score']),
              dqFlag(
                'values_while_processing',
                'analysis.parkinsons',
                'Processing',
                'no values before completed',
                ['pd_score'],
              ),
            ],
          },
        ],
        unlisted: [{ name: 'voice_age', raw: '{"status":"completed","years":41}' }],
        flags: [
          dqFlag('unknown_analysis_type', 'analysis.voice_age', { status: 'completed' }, 'a listed type'),
        ],
      }),
      '2026-01-01T00:02:00.000Z',
    );
    expect(
      (await flagsOfRecording(sqliteStore(db), 1)).map(
        (f) => `${f.origin}:${f.analysisType ?? '-'}:${f.code}`,
      ),
    ).toEqual([
      'poll:-:unknown_analysis_type',
      'poll:parkinsons:status_case_normalised',
      'poll:parkinsons:score_out_of_range',
      'poll:parkinsons:values_while_processing',
    ]);
    expect(await answersAsReceived(sqliteStore(db), [1])).toEqual([
      { recordingId: 1, name: 'parkinsons', listed: true, receivedStatus: 'Processing', raw },
      {
        recordingId: 1,
        name: 'voice_age',
        listed: false,
        receivedStatus: null,
        raw: '{"status":"completed","years":41}',
      },
    ]);
    // Values while processing are kept as received and flagged, but are not results yet.
    expect(
      db.prepare(`SELECT measure_key FROM measure_values WHERE recording_id = 1 ORDER BY 1`).all(),
    ).toEqual([{ measure_key: 'wb_stress_score' }]);

    await storeAnalysis(
      store,
      '2026-01-01T00:03:00.000Z',
      1,
      analysis({
        outcomes: [
          {
            type: 'parkinsons',
            status: 'completed',
            values: { pd_score: 101 },
            receivedStatus: 'completed',
            raw: '{"status":"completed"}',
            flags: [
              dqFlag('score_out_of_range', 'analysis.parkinsons.pd_score', 101, '0 to 100', ['pd_score']),
            ],
          },
        ],
      }),
      null,
    );
    expect((await flagsOfRecording(sqliteStore(db), 1)).map((f) => [f.code, f.received, f.measures])).toEqual(
      [['score_out_of_range', '101', ['pd_score']]],
    );
    expect(db.prepare(`SELECT value_num FROM measure_values WHERE measure_key = 'pd_score'`).get()).toEqual({
      value_num: 101,
    });
    // Deleting the recording takes its flags and unlisted types with it.
    db.prepare(`DELETE FROM recordings WHERE id = 1`).run();
    expect(
      db
        .prepare(
          `SELECT (SELECT count(*) FROM data_quality_flags) + (SELECT count(*) FROM unlisted_analyses) AS n`,
        )
        .get(),
    ).toEqual({ n: 0 });
    db.close();
  });
});
