/**
 * The study schema: studies, service profiles, participants, batches, recordings with their upload
 * state, one row per requested analysis type with its polling schedule, measure values stored for
 * both per-recording and per-participant-over-time reads, usage history and an append-only event log.
 * API keys are never stored here: a profile records only where its key is kept.
 */
import type { Migration } from '../migrate';

export const m0010: Migration = {
  version: 10,
  name: '0010-study-schema',
  up(db) {
    db.exec(`
      CREATE TABLE service_profiles (
        id            INTEGER PRIMARY KEY,
        name          TEXT NOT NULL UNIQUE,
        base_url      TEXT NOT NULL,
        api_version   TEXT NOT NULL CHECK (api_version IN ('v1.3', 'v1.2')),
        -- where the key is kept (e.g. 'safe-storage:<id>', 'key-file:<id>'); never the key itself
        key_ref       TEXT,
        is_sandbox    INTEGER NOT NULL DEFAULT 0 CHECK (is_sandbox IN (0, 1)),
        created_at    TEXT NOT NULL
      ) STRICT;

      CREATE TABLE studies (
        id            INTEGER PRIMARY KEY,
        name          TEXT NOT NULL UNIQUE,
        profile_id    INTEGER REFERENCES service_profiles(id),
        created_at    TEXT NOT NULL,
        archived_at   TEXT
      ) STRICT;

      CREATE TABLE participants (
        id            INTEGER PRIMARY KEY,
        study_id      INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        code          TEXT NOT NULL,
        account_id    TEXT,
        notes         TEXT NOT NULL DEFAULT '',
        created_at    TEXT NOT NULL,
        UNIQUE (study_id, code),
        UNIQUE (study_id, account_id)
      ) STRICT;

      CREATE TABLE batches (
        id            INTEGER PRIMARY KEY,
        study_id      INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        created_at    TEXT NOT NULL,
        analyses      TEXT NOT NULL,             -- JSON array of analysis types
        isolate_oldest_speaker INTEGER NOT NULL DEFAULT 0 CHECK (isolate_oldest_speaker IN (0, 1)),
        state         TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'running', 'paused', 'cancelled', 'finished'))
      ) STRICT;

      CREATE TABLE recordings (
        id                  INTEGER PRIMARY KEY,
        study_id            INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        participant_id      INTEGER NOT NULL REFERENCES participants(id) ON DELETE CASCADE,
        batch_id            INTEGER REFERENCES batches(id) ON DELETE SET NULL,
        source_path         TEXT NOT NULL,
        content_sha256      TEXT NOT NULL,
        size_bytes          INTEGER NOT NULL,
        format              TEXT,
        channels            INTEGER,
        sample_rate_hz      INTEGER,
        bit_rate_bps        INTEGER,
        duration_seconds    REAL,
        speech_estimate_seconds REAL,
        converted           INTEGER NOT NULL DEFAULT 0 CHECK (converted IN (0, 1)),
        recorded_at         TEXT NOT NULL,
        recorded_at_source  TEXT NOT NULL CHECK (recorded_at_source IN ('manifest', 'filename', 'embedded', 'file_mtime', 'researcher')),
        session_label       TEXT,
        upload_state        TEXT NOT NULL DEFAULT 'pending' CHECK (upload_state IN (
                              'pending', 'refused_locally', 'duplicate', 'queued', 'uploading',
                              'uploaded', 'rejected', 'upload_uncertain', 'cancelled')),
        upload_intent_at    TEXT,                 -- written before the request is sent
        upload_attempts     INTEGER NOT NULL DEFAULT 0,
        upload_error        TEXT,                 -- JSON ApiError or local verdict
        -- what the service answered (Recording)
        recording_id        TEXT UNIQUE,
        api_version         TEXT CHECK (api_version IN ('v1.3', 'v1.2')),
        result_source       TEXT CHECK (result_source IN ('service', 'simulated')),
        uploaded_at         TEXT,
        svc_format          TEXT,
        svc_size_bytes      INTEGER,
        svc_sample_rate_hz  INTEGER,
        svc_bit_rate_bps    INTEGER,
        svc_duration_seconds REAL,
        svc_speech_seconds  REAL,
        created_at          TEXT NOT NULL
      ) STRICT;
      CREATE INDEX recordings_by_participant ON recordings (participant_id, recorded_at);
      CREATE INDEX recordings_by_state ON recordings (study_id, upload_state);
      CREATE INDEX recordings_by_hash ON recordings (participant_id, content_sha256);

      CREATE TABLE analyses (
        recording_id    INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        type            TEXT NOT NULL CHECK (type IN ('wellbeing', 'parkinsons', 'alzheimers', 'communication_coach')),
        state           TEXT NOT NULL CHECK (state IN ('awaiting_upload', 'processing', 'completed', 'error', 'not_requested', 'timed_out')),
        requested_at    TEXT NOT NULL,
        finished_at     TEXT,
        next_poll_at    TEXT,
        polls           INTEGER NOT NULL DEFAULT 0,
        last_polled_at  TEXT,
        PRIMARY KEY (recording_id, type)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX analyses_due ON analyses (next_poll_at) WHERE next_poll_at IS NOT NULL;

      -- One row per recording and measure. participant_id and recorded_at are copied from the recording so
      -- that a participant's timeline of one measure is a single index range scan.
      CREATE TABLE measure_values (
        recording_id    INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        measure_key     TEXT NOT NULL,
        participant_id  INTEGER NOT NULL,
        recorded_at     TEXT NOT NULL,
        value_num       REAL,
        value_text      TEXT,
        CHECK ((value_num IS NULL) <> (value_text IS NULL)),
        PRIMARY KEY (recording_id, measure_key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX measure_timeline ON measure_values (participant_id, measure_key, recorded_at);

      CREATE TABLE usage_history (
        id                INTEGER PRIMARY KEY,
        profile_id        INTEGER NOT NULL REFERENCES service_profiles(id) ON DELETE CASCADE,
        at                TEXT NOT NULL,
        uploads_remaining INTEGER NOT NULL,
        detail            TEXT NOT NULL        -- JSON UsageDetail
      ) STRICT;

      -- What was sent and received, without audio, keys or participant codes. Append-only.
      CREATE TABLE event_log (
        id            INTEGER PRIMARY KEY,
        at            TEXT NOT NULL,
        kind          TEXT NOT NULL,
        study_id      INTEGER,
        recording_id  INTEGER,
        detail        TEXT NOT NULL DEFAULT '{}'
      ) STRICT;
      CREATE TRIGGER event_log_no_update BEFORE UPDATE ON event_log BEGIN SELECT RAISE(ABORT, 'event_log is append-only'); END;
      CREATE TRIGGER event_log_no_delete BEFORE DELETE ON event_log BEGIN SELECT RAISE(ABORT, 'event_log is append-only'); END;
    `);
  },
};
