/**
 * Curation through the study service: every act changes the recording, is kept as a curation
 * act with who, when, why, before and after, and is an entry in the hash-chained audit log; undo
 * restores the state before and is an act and an audit entry of its own; refusals are values.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditPage, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from '../rpc/seed';

let root: string;
let svc: StudyService;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vs-curation-'));
  svc = await openTestStudyService({ workspaceDir: root, now: () => NOW, operator: 'Dr. Ada' });
});
afterEach(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const refusal = (r: { ok: boolean; error?: { message: string } }): string => {
  if (r.ok) throw new Error('expected a refusal');
  return r.error!.message;
};
const row = async (id: number) =>
  (await svc.store.get(
    `SELECT participant_id, session_label, excluded_at, excluded_reason, provenance, upload_state FROM recordings WHERE id = ?`,
    [id],
  )) as
    | {
        participant_id: number;
        session_label: string | null;
        excluded_at: string | null;
        excluded_reason: string | null;
        provenance: string | null;
        upload_state: string;
      }
    | undefined;
const lastAudit = async () => (await auditPage(svc.store, 0, 1)).rows[0]!;
const participantRow = async (id: number) =>
  await svc.store.get(
    `SELECT rec_count, first_recording_at, last_recording_at FROM participants WHERE id = ?`,
    [id],
  );

const study = async () => {
  const s = await seedStudy(svc.store, 'Voice');
  const a = await seedParticipant(svc.store, s, 'P-001', { accountId: 'acct-a' });
  const b = await seedParticipant(svc.store, s, 'P-002', { accountId: 'acct-b' });
  return { s, a, b };
};

describe('reassigning a recording', () => {
  it('moves a never-sent recording to another participant and session, with an act and an audit entry', async () => {
    const { s, a, b } = await study();
    const r = await seedRecording(svc.store, s, a, {
      recordedAt: daysAgo(3),
      uploadState: 'pending',
      session: 'W1',
    });
    const done = must(
      await svc.reassignRecording(r, { participantId: b, session: 'W2' }, 'filed under the wrong code'),
    );
    expect(done.warning).toBeNull();
    expect(await row(r)).toMatchObject({ participant_id: b, session_label: 'W2', provenance: null });
    const [act] = await svc.curationOfRecording(r);
    expect(act).toMatchObject({
      id: done.act,
      act: 'reassign',
      who: 'Dr. Ada',
      at: new Date(NOW).toISOString(),
      reason: 'filed under the wrong code',
      before: { participantId: a, participant: 'P-001', session: 'W1' },
      after: { participantId: b, participant: 'P-002', session: 'W2' },
      undoable: true,
    });
    const audit = await lastAudit();
    expect(audit).toMatchObject({
      id: act!.auditId,
      kind: 'recording_reassigned',
      studyId: s,
      subject: 'Voice',
      detail: {
        act: done.act,
        recording: r,
        who: 'dr._ada',
        participant_before: a,
        participant_after: b,
        session_changed: true,
        after_upload: false,
      },
    });
    expect(audit.detail['digest']).toMatch(/^[0-9a-f]{40}$/);
    // The audit log holds no code, label or reason.
    expect(JSON.stringify(audit)).not.toMatch(/P-00|W2|wrong code/);
    expect((await verifyAuditChain(svc.store)).ok).toBe(true);
  });

  it('after upload, warns that the service analysed it under the first account and notes it in provenance; values move too', async () => {
    const { s, a, b } = await study();
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(3) });
    await storeValues(svc.store, r, 'parkinsons', { pd_hnr: 12 });
    const done = must(await svc.reassignRecording(r, { participantId: b }));
    expect(done.warning).toMatch(/analysed this recording under participant P-001's account/);
    const notes = JSON.parse((await row(r))!.provenance!) as { note: string; act: number }[];
    expect(notes).toEqual([
      expect.objectContaining({
        act: done.act,
        note: expect.stringMatching(/Reassigned from participant P-001 to P-002 after upload/),
      }),
    ]);
    expect(
      await svc.store.all(`SELECT DISTINCT participant_id AS p FROM measure_values WHERE recording_id = ?`, [
        r,
      ]),
    ).toEqual([{ p: b }]);
    expect((await lastAudit()).detail).toMatchObject({ after_upload: true });
    expect(await participantRow(a)).toMatchObject({ rec_count: 0, last_recording_at: null });
    expect(await participantRow(b)).toMatchObject({ rec_count: 1, last_recording_at: daysAgo(3) });
  });

  it('undo puts it back (provenance too) and is an act and audit entry of its own; an undo is not undone twice', async () => {
    const { s, a, b } = await study();
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(3), session: 'W1' });
    await storeValues(svc.store, r, 'parkinsons', { pd_hnr: 12 });
    const done = must(await svc.reassignRecording(r, { participantId: b, session: null }));
    const undo = must(await svc.undoCuration(done.act, 'my mistake'));
    expect(await row(r)).toMatchObject({ participant_id: a, session_label: 'W1', provenance: null });
    expect(
      await svc.store.all(`SELECT DISTINCT participant_id AS p FROM measure_values WHERE recording_id = ?`, [
        r,
      ]),
    ).toEqual([{ p: a }]);
    const [u, original] = await svc.curationOfRecording(r);
    expect(u).toMatchObject({
      id: undo.act,
      act: 'undo',
      undoes: done.act,
      reason: 'my mistake',
      undoable: false,
    });
    expect(original).toMatchObject({ id: done.act, undoneBy: undo.act, undoable: false });
    expect(await lastAudit()).toMatchObject({
      kind: 'curation_undone',
      detail: {
        act: undo.act,
        undoes: done.act,
        undone: 'reassign',
        participant_before: b,
        participant_after: a,
      },
    });
    expect(refusal(await svc.undoCuration(done.act))).toMatch(/already undone/);
    expect(refusal(await svc.undoCuration(undo.act))).toMatch(/cannot be undone/);
    expect(await verifyAuditChain(svc.store)).toEqual({ ok: true, entries: 2 });
  });

  it('refuses a participant of another study, a recording being uploaded, and a move to where it already is', async () => {
    const { s, a, b } = await study();
    const other = await seedStudy(svc.store, 'Other');
    const c = await seedParticipant(svc.store, other, 'Q-1');
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(3) });
    expect(refusal(await svc.reassignRecording(r, { participantId: c }))).toMatch(/not in this study/);
    expect(refusal(await svc.reassignRecording(r, { participantId: a }))).toMatch(/already filed there/);
    const u = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2), uploadState: 'uploading' });
    expect(refusal(await svc.reassignRecording(u, { participantId: b }))).toMatch(/being uploaded right now/);
    expect(refusal(await svc.reassignRecording(9999, { participantId: b }))).toMatch(/no such recording/);
    expect((await auditPage(svc.store, 0, 10)).total).toBe(0);
  });

  it('refuses to undo when the recording changed since (a later act must be undone first)', async () => {
    const { s, a, b } = await study();
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(3), session: 'W1' });
    const first = must(await svc.reassignRecording(r, { session: 'W2' }));
    const second = must(await svc.reassignRecording(r, { participantId: b }));
    expect(refusal(await svc.undoCuration(first.act))).toMatch(/changed since this act/);
    must(await svc.undoCuration(second.act));
    must(await svc.undoCuration(first.act));
    expect(await row(r)).toMatchObject({ participant_id: a, session_label: 'W1' });
  });
});

describe('excluding and restoring a recording', () => {
  it('needs a reason, marks the recording, and no longer counts it as the first or latest recording', async () => {
    const { s, a } = await study();
    const early = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(20) });
    const late = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2) });
    expect(refusal(await svc.excludeRecording(late, '  '))).toMatch(/Say why/);
    const done = must(await svc.excludeRecording(late, 'test recording'));
    expect(await row(late)).toMatchObject({
      excluded_at: new Date(NOW).toISOString(),
      excluded_reason: 'test recording',
    });
    expect(await participantRow(a)).toMatchObject({
      rec_count: 2,
      first_recording_at: daysAgo(20),
      last_recording_at: daysAgo(20),
    });
    expect((await svc.curationOfRecording(late))[0]).toMatchObject({
      id: done.act,
      act: 'exclude',
      before: { excluded: false, at: null, reason: null },
      after: { excluded: true, reason: 'test recording' },
    });
    expect(await lastAudit()).toMatchObject({
      kind: 'recording_excluded',
      detail: { act: done.act, recording: late },
    });
    expect(refusal(await svc.excludeRecording(late, 'again'))).toMatch(/already excluded/);
    void early;
  });

  it('restore brings it back (an act); undoing the restore excludes it again with the same reason', async () => {
    const { s, a } = await study();
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2) });
    must(await svc.excludeRecording(r, 'wrong task'));
    const restored = must(await svc.restoreRecording(r, 'it was the right task'));
    expect(await row(r)).toMatchObject({ excluded_at: null, excluded_reason: null });
    expect(await participantRow(a)).toMatchObject({ last_recording_at: daysAgo(2) });
    expect(await lastAudit()).toMatchObject({ kind: 'recording_restored' });
    must(await svc.undoCuration(restored.act));
    expect(await row(r)).toMatchObject({ excluded_reason: 'wrong task' });
    expect(
      refusal(await svc.restoreRecording(await seedRecording(svc.store, s, a, { recordedAt: daysAgo(1) }))),
    ).toMatch(/not excluded/);
  });

  it('undo of an exclusion includes the recording again', async () => {
    const { s, a } = await study();
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2) });
    const done = must(await svc.excludeRecording(r, 'noise'));
    must(await svc.undoCuration(done.act));
    expect(await row(r)).toMatchObject({ excluded_at: null });
    expect((await lastAudit()).detail).toMatchObject({ undone: 'exclude' });
  });
});

describe('deleting a recording that was never sent', () => {
  it('deletes a refused, a held duplicate or a pending file, and undo puts it back as it was', async () => {
    const { s, a } = await study();
    for (const state of ['refused_locally', 'duplicate', 'pending']) {
      const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2), uploadState: state });
      const before = await svc.store.get(`SELECT * FROM recordings WHERE id = ?`, [r]);
      const analyses = await svc.store.all(`SELECT * FROM analyses WHERE recording_id = ?`, [r]);
      const done = must(await svc.deleteNeverSentRecording(r, 'test file'));
      expect(await row(r)).toBeUndefined();
      expect(await lastAudit()).toMatchObject({
        kind: 'recording_deleted',
        detail: { act: done.act, recording: r },
      });
      expect((await svc.curationOfRecording(r))[0]).toMatchObject({
        act: 'delete_unsent',
        reason: 'test file',
        after: null,
      });
      must(await svc.undoCuration(done.act));
      expect(await svc.store.get(`SELECT * FROM recordings WHERE id = ?`, [r])).toEqual(before);
      expect(await svc.store.all(`SELECT * FROM analyses WHERE recording_id = ?`, [r])).toEqual(analyses);
    }
    expect(await participantRow(a)).toMatchObject({ rec_count: 3 });
    expect(await verifyAuditChain(svc.store)).toEqual({ ok: true, entries: 6 });
  });

  it('refuses a recording that was sent or queued, writing nothing', async () => {
    const { s, a } = await study();
    for (const state of ['uploaded', 'queued', 'upload_uncertain', 'rejected']) {
      const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2), uploadState: state });
      expect(refusal(await svc.deleteNeverSentRecording(r))).toMatch(/Only a recording that was never sent/);
      expect(await row(r)).toBeDefined();
    }
    expect((await auditPage(svc.store, 0, 10)).total).toBe(0);
    expect(await svc.curationOfStudy(s)).toEqual([]);
  });
});

describe('sending a locally refused file anyway', () => {
  const verdict = (code: string, message: string) => ({
    status: 'refused' as const,
    findings: [{ code, severity: 'refuse' as const, fixedByConversion: false, message, action: 'x' }],
  });

  it('sends it when the refusal was the local speech estimate; undo puts it back while it waits', async () => {
    const { s, a } = await study();
    const r = await seedRecording(svc.store, s, a, {
      recordedAt: daysAgo(2),
      uploadState: 'refused_locally',
      verdict: verdict('speech_too_short', 'About 24 s of speech was found.'),
    });
    expect(refusal(await svc.sendRefusedAnyway(r, ''))).toMatch(/Say why/);
    const done = must(await svc.sendRefusedAnyway(r, 'the estimate misses quiet speech'));
    expect((await row(r))!.upload_state).toBe('queued');
    expect(await lastAudit()).toMatchObject({
      kind: 'recording_sent_anyway',
      detail: { act: done.act, recording: r },
    });
    must(await svc.undoCuration(done.act));
    expect((await row(r))!.upload_state).toBe('refused_locally');
  });

  it("refuses where the service's hard limits make it pointless (size, format, a duration under 30 s)", async () => {
    const { s, a } = await study();
    const big = await seedRecording(svc.store, s, a, {
      recordedAt: daysAgo(2),
      uploadState: 'refused_locally',
      verdict: verdict('too_large', 'The file is larger than 100 MB.'),
    });
    expect(refusal(await svc.sendRefusedAnyway(big, 'please'))).toMatch(
      /service's own limits.*larger than 100 MB/,
    );
    const short = await seedRecording(svc.store, s, a, {
      recordedAt: daysAgo(2),
      uploadState: 'refused_locally',
      verdict: verdict('speech_too_short', 'The recording lasts 20 s.'),
    });
    await svc.store.run(`UPDATE recordings SET duration_seconds = 20 WHERE id = ?`, [short]);
    expect(refusal(await svc.sendRefusedAnyway(short, 'please'))).toMatch(/service's own limits/);
    const sent = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2) });
    expect(refusal(await svc.sendRefusedAnyway(sent, 'please'))).toMatch(/not refused locally/);
    expect((await auditPage(svc.store, 0, 10)).total).toBe(0);
  });
});

describe('the record of acts', () => {
  it("lists a study's acts newest first and never lets one be changed", async () => {
    const { s, a, b } = await study();
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2) });
    must(await svc.excludeRecording(r, 'noise'));
    must(await svc.reassignRecording(r, { participantId: b }));
    expect((await svc.curationOfStudy(s)).map((x) => x.act)).toEqual(['reassign', 'exclude']);
    await expect(svc.store.run(`UPDATE curation_acts SET reason = 'x'`)).rejects.toThrow(/never changed/);
  });

  it('refuses a reason with control characters or over 500 characters', async () => {
    const { s, a } = await study();
    const r = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2) });
    expect(refusal(await svc.excludeRecording(r, 'a\u0007b'))).toMatch(/control characters/);
    expect(refusal(await svc.excludeRecording(r, 'x'.repeat(501)))).toMatch(/longer than 500/);
  });
});
