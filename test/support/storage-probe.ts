/**
 * Runs in a child process inside its own mount namespace (see test/integration/db/real-storage-failures.test.ts),
 * where the parent has mounted a tiny tmpfs or a read-only bind mount, and prints one JSON line of what happened.
 *
 *   full <dir>        a study database on a small file system that is then filled up: results are stored
 *                     through the engine's own repository until the disk refuses, then space is freed
 *   open <dbPath>     opens the study database at dbPath (on a read-only mount) and reports the outcome
 */
import { closeSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { classifyDbError } from '../../main/db/db-errors';
import { tryOpenStudyDb, type Db } from '../../main/db/open';
import { storeAnalysis } from '../../main/db/repos/results.repo';
import type { RecordingAnalysis } from '../../shared/api/domain';
import { sqliteStore } from '../../main/db/store/sqlite-store';

const [mode, target] = process.argv.slice(2) as [string, string];
const AT = '2026-03-02T10:00:00.000Z';

/** Writes to `path` until the file system says ENOSPC, then gives back `slack` bytes; returns the bytes kept. */
const fillFileSystem = (path: string, slack: number): number => {
  const fd = openSync(path, 'w');
  let total = 0;
  try {
    for (let chunk = 64 * 1024; chunk >= 1;) {
      try {
        total += writeSync(fd, Buffer.alloc(chunk, 0x5a));
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENOSPC') throw e;
        chunk = Math.floor(chunk / 2);
      }
    }
    ftruncateSync(fd, Math.max(0, total - slack));
  } finally {
    closeSync(fd);
  }
  return Math.max(0, total - slack);
};

const seedRecording = (db: Db, i: number): number => {
  const id = Number(
    db
      .prepare(
        `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, uploaded_at, created_at)
     VALUES (1, 1, ?, ?, 1, ?, 'manifest', 'uploaded', ?, ?, ?)`,
      )
      .run(`/f/${i}.wav`, `h${i}`, AT, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, AT, AT)
      .lastInsertRowid,
  );
  db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, 'alzheimers', 'processing', ?, ?)`,
  ).run(id, AT, AT);
  return id;
};

const result = (i: number): RecordingAnalysis => ({
  apiVersion: 'v1.3',
  recordingId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  accountId: 'a',
  recordedAt: AT,
  uploadedAt: AT,
  audio: {
    format: 'wav',
    sizeBytes: 1,
    sampleRateHz: 16_000,
    bitRateBps: 256_000,
    durationSeconds: 60,
    speechDurationSeconds: 40,
  },
  source: 'simulated',
  outcomes: [
    {
      type: 'alzheimers',
      status: 'completed',
      values: {
        ad_ttr: 0.5 + i / 1e6,
        ad_mlu_words: 9.75,
        ad_cognition: 'hc',
        ad_p_hc: 0.8,
        ad_p_mci: 0.15,
        ad_p_ad: 0.05,
      },
    },
  ],
});

const full = async (dir: string) => {
  const opened = tryOpenStudyDb(join(dir, 'voicescope.sqlite'));
  if (!opened.ok) return { opened: opened.error };
  const { db } = opened.value;
  const store = sqliteStore(db);
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://127.0.0.1:1', 'v1.3', ?)`,
  ).run(AT);
  db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, ?)`).run(AT);
  db.prepare(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P1', 'a', ?)`,
  ).run(AT);
  const filler = join(dir, 'other-files.bin');
  // Room for a few results, then none: the study goes on for a while on an almost full disk.
  const fillerBytes = fillFileSystem(filler, 256 * 1024);
  let stored = 0;
  let failure: unknown = null;
  let failedId = -1;
  for (let i = 0; i < 100_000 && failure === null; i++) {
    let id = -1;
    try {
      id = seedRecording(db, i);
      await store.transaction((tx) => storeAnalysis(tx, AT, id, result(i), null));
      stored++;
    } catch (e) {
      failure = e;
      failedId = id;
    }
  }
  const countValues = () => (db.prepare(`SELECT count(*) n FROM measure_values`).get() as { n: number }).n;
  const valuesAtFailure = countValues();
  // Nothing half-stored: the recording whose results could not be written has no values and is still processing.
  const failedState =
    failedId > 0
      ? {
          values: (
            db.prepare(`SELECT count(*) n FROM measure_values WHERE recording_id = ?`).get(failedId) as {
              n: number;
            }
          ).n,
          state: (
            db.prepare(`SELECT state FROM analyses WHERE recording_id = ?`).get(failedId) as { state: string }
          ).state,
        }
      : null;
  rmSync(filler);
  let retried = false;
  if (failedId > 0) {
    await store.transaction((tx) => storeAnalysis(tx, AT, failedId, result(failedId), null));
    retried = true;
  }
  const out = {
    fillerBytes,
    stored,
    sqliteCode: (failure as { code?: string } | null)?.code ?? null,
    problem: classifyDbError(failure, { dbPath: join(dir, 'voicescope.sqlite') }),
    valuesAtFailure,
    failedState,
    retried,
    valuesAfter: countValues(),
    integrity: db.pragma('integrity_check', { simple: true }),
  };
  db.close();
  return out;
};

const open = (dbPath: string) => {
  const r = tryOpenStudyDb(dbPath);
  if (r.ok) r.value.db.close();
  return r.ok ? { opened: true } : { opened: false, problem: r.error };
};

console.log(JSON.stringify(mode === 'full' ? await full(target) : open(target)));
