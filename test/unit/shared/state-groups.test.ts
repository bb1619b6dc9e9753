/**
 * The groups of states (shared/states.ts): every state of the vocabulary has a decision in each
 * classification, the groups hold what the study rules say, and the SQL written from them (and the
 * participant figures migration 0040's triggers keep) agree.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { sqlWords } from '../../../main/db/sql-words';
import { batchFigures } from '../../../renderer/src/components/Progress';
import {
  ANALYSIS_STATE_STANDING,
  ANALYSIS_STATES,
  ANALYSIS_STATES_DONE,
  ANALYSIS_STATES_FAILED,
  ANALYSIS_STATES_UNDER_WAY,
  UPLOAD_STATE_NEEDS_ATTENTION,
  UPLOAD_STATE_REACH,
  UPLOAD_STATES,
  UPLOAD_STATES_IN_FLIGHT,
  UPLOAD_STATES_NEEDING_ATTENTION,
  UPLOAD_STATES_NEVER_SENT,
  UPLOAD_STATES_SENT,
} from '../../../shared/states';

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('state groups', () => {
  it('decide, for every upload state, how far its file got and whether it needs the researcher', () => {
    expect(sorted(Object.keys(UPLOAD_STATE_REACH))).toEqual(sorted(UPLOAD_STATES));
    expect(sorted(Object.keys(UPLOAD_STATE_NEEDS_ATTENTION))).toEqual(sorted(UPLOAD_STATES));
  });

  it('decide, for every analysis state, where it stands', () => {
    expect(sorted(Object.keys(ANALYSIS_STATE_STANDING))).toEqual(sorted(ANALYSIS_STATES));
  });

  it('split the upload states into never sent, in flight and sent, each state in exactly one', () => {
    expect(sorted(UPLOAD_STATES_NEVER_SENT)).toEqual([
      'cancelled',
      'duplicate',
      'pending',
      'refused_locally',
    ]);
    expect(sorted(UPLOAD_STATES_IN_FLIGHT)).toEqual(['queued', 'uploading']);
    expect(sorted(UPLOAD_STATES_SENT)).toEqual(['rejected', 'upload_uncertain', 'uploaded']);
    expect(sorted([...UPLOAD_STATES_NEVER_SENT, ...UPLOAD_STATES_IN_FLIGHT, ...UPLOAD_STATES_SENT])).toEqual(
      sorted(UPLOAD_STATES),
    );
  });

  it('count refused, rejected, uncertain and duplicate files as needing the researcher', () => {
    expect(sorted(UPLOAD_STATES_NEEDING_ATTENTION)).toEqual([
      'duplicate',
      'refused_locally',
      'rejected',
      'upload_uncertain',
    ]);
  });

  it('split the analysis states into under way, failed and done', () => {
    expect(sorted(ANALYSIS_STATES_UNDER_WAY)).toEqual(['awaiting_upload', 'processing']);
    expect(sorted(ANALYSIS_STATES_FAILED)).toEqual(['error', 'timed_out', 'unanswered']);
    expect(sorted(ANALYSIS_STATES_DONE)).toEqual(['completed', 'not_requested']);
  });
});

describe('sqlWords', () => {
  it('writes a group as a quoted SQL list', () => {
    expect(sqlWords(ANALYSIS_STATES_DONE)).toBe(`('completed', 'not_requested')`);
  });

  it('refuses anything that is not a vocabulary word, and an empty list', () => {
    expect(() => sqlWords(["x') OR 1=1 --"])).toThrow(/Not a vocabulary word/);
    expect(() => sqlWords([])).toThrow(/at least one/);
  });
});

describe("the participant figures kept by the database's triggers", () => {
  it('count the same upload states as needing the researcher as the group does', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS);
    db.exec(`
      INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'Lab', 'https://x', 'v1.3', 'now');
      INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'S', 1, 'now');
    `);
    const participant = db.prepare(
      `INSERT INTO participants (id, study_id, code, created_at) VALUES (?, 1, ?, 'now')`,
    );
    const recording = db.prepare(
      `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, created_at, upload_state)
       VALUES (1, ?, ?, ?, 1, '2026-01-01T00:00:00.000Z', 'manifest', 'now', ?)`,
    );
    const counted = UPLOAD_STATES.filter((state, i) => {
      participant.run(i + 1, `P-${i + 1}`);
      recording.run(i + 1, `/${state}.wav`, state, state);
      const p = db.prepare(`SELECT rec_attention FROM participants WHERE id = ?`).get(i + 1) as {
        rec_attention: number;
      };
      return p.rec_attention === 1;
    });
    expect(sorted(counted)).toEqual(sorted(UPLOAD_STATES_NEEDING_ATTENTION));
  });
});

describe("a batch's figures", () => {
  it('count files on their way or sent as to send, and the attention group as needing the researcher', () => {
    const uploads = Object.fromEntries(UPLOAD_STATES.map((s) => [s, 1]));
    const f = batchFigures({ uploads, analysesByState: {}, analyses: ['wellbeing'] } as unknown as Parameters<
      typeof batchFigures
    >[0]);
    expect(f.toSend).toBe(6);
    expect(f.sent).toBe(1);
    expect(f.attention).toBe(UPLOAD_STATES_NEEDING_ATTENTION.length);
    // Each file still to be accepted (waiting, being sent, or its outcome unknown) brings the batch's analyses.
    expect(f.analyses).toBe(4);
  });
});
