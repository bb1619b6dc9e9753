/**
 * Merging a participant entered twice, through the study service (docs/curation.md): every
 * recording of the first moves to the second with its session; a session label both use is refused; the
 * same audio under both is surfaced; attributes merge with the survivor's value kept; recordings already
 * analysed under the first participant's account are warned about and noted in provenance; the first is
 * kept, marked merged, and no longer has expected visits; undo restores both. Each is an act and an
 * audit entry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditPage, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import { insertImportBatch } from '../../../main/db/repos/imports.repo';
import { writeAttributes } from '../../../main/db/repos/cohort.repo';
import { attributesOfParticipant } from '../../../main/db/repos/participant-merge.repo';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from '../rpc/seed';

let root: string;
let svc: StudyService;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vs-merge-'));
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
const ownerOf = async (id: number) =>
  ((await svc.store.get(`SELECT participant_id AS p FROM recordings WHERE id = ?`, [id])) as { p: number }).p;
const provenanceOf = async (id: number) =>
  (
    (await svc.store.get(`SELECT provenance FROM recordings WHERE id = ?`, [id])) as {
      provenance: string | null;
    }
  ).provenance;
const figures = async (id: number) =>
  await svc.store.get(`SELECT rec_count, merged_into FROM participants WHERE id = ?`, [id]);

/** P-007 is the real participant; P-017 is the same person entered a second time. */
const study = async () => {
  const s = await seedStudy(svc.store, 'Voice');
  const into = await seedParticipant(svc.store, s, 'P-007', { accountId: 'acct-7' });
  const from = await seedParticipant(svc.store, s, 'P-017', { accountId: 'acct-17' });
  const other = await seedParticipant(svc.store, s, 'P-008', { accountId: 'acct-8' });
  return { s, into, from, other };
};

describe('merging two participants', () => {
  it("moves every recording with its session, warns about the first account's analyses and notes them; the first is kept, marked", async () => {
    const { s, into, from } = await study();
    const kept = await seedRecording(svc.store, s, into, { recordedAt: daysAgo(20), session: 'W1' });
    const sent = await seedRecording(svc.store, s, from, { recordedAt: daysAgo(13), session: 'W2' });
    await storeValues(svc.store, sent, 'parkinsons', { pd_hnr: 12 });
    const pending = await seedRecording(svc.store, s, from, {
      recordedAt: daysAgo(6),
      session: 'W3',
      uploadState: 'pending',
    });
    const done = must(await svc.mergeParticipants(from, into, 'entered twice: P-017 is P-007'));
    expect(done.warning).toMatch(/analysed 1 of these recordings under participant P-017's account/);
    expect([await ownerOf(kept), await ownerOf(sent), await ownerOf(pending)]).toEqual([into, into, into]);
    expect(
      await svc.store.all(`SELECT session_label AS l FROM recordings WHERE id IN (?, ?) ORDER BY id`, [
        sent,
        pending,
      ]),
    ).toEqual([{ l: 'W2' }, { l: 'W3' }]);
    expect(
      await svc.store.all(`SELECT DISTINCT participant_id AS p FROM measure_values WHERE recording_id = ?`, [
        sent,
      ]),
    ).toEqual([{ p: into }]);
    expect(JSON.parse((await provenanceOf(sent))!)).toEqual([
      expect.objectContaining({
        act: done.act,
        note: expect.stringMatching(/Merged from participant P-017 into P-007 after upload/),
      }),
    ]);
    expect(await provenanceOf(pending)).toBeNull();
    expect(await figures(from)).toEqual({ rec_count: 0, merged_into: into });
    expect(await figures(into)).toMatchObject({ rec_count: 3, merged_into: null });
    expect((await svc.participant(from, NOW))!.mergedInto).toEqual({ id: into, code: 'P-007' });
    expect((await svc.participant(into, NOW))!.mergedInto).toBeNull();

    const [act] = await svc.curationOfParticipant(from);
    expect(act).toMatchObject({
      id: done.act,
      act: 'merge',
      who: 'Dr. Ada',
      participantId: from,
      recordingId: null,
      reason: 'entered twice: P-017 is P-007',
      undoable: true,
      before: { from: { code: 'P-017', mergedInto: null }, into: { code: 'P-007' } },
      after: { from: { code: 'P-017', mergedInto: into }, into: { code: 'P-007' } },
    });
    expect((await svc.curationOfParticipant(into)).map((a) => a.id)).toEqual([done.act]);
    const audit = (await auditPage(svc.store, 0, 1)).rows[0]!;
    expect(audit).toMatchObject({
      id: act!.auditId,
      kind: 'participants_merged',
      studyId: s,
      detail: {
        act: done.act,
        participant_id: from,
        participant_before: from,
        participant_after: into,
        recordings: 2,
        after_upload: true,
        duplicates: 0,
        who: 'dr._ada',
      },
    });
    // The audit log holds no code, label or reason.
    expect(JSON.stringify(audit)).not.toMatch(/P-0|W2|entered twice/);
    expect((await verifyAuditChain(svc.store)).ok).toBe(true);
  });

  it('refuses while both have recordings in one session label, and says which; nothing changes', async () => {
    const { s, into, from } = await study();
    await seedRecording(svc.store, s, into, { recordedAt: daysAgo(20), session: 'W1' });
    const clash = await seedRecording(svc.store, s, from, { recordedAt: daysAgo(19), session: 'W1' });
    const preview = must(await svc.previewMerge(from, into));
    expect(preview).toMatchObject({ recordings: 1, sessionClashes: ['W1'] });
    expect(preview.refusal).toMatch(/Both participants have recordings in session W1/);
    expect(refusal(await svc.mergeParticipants(from, into, 'entered twice'))).toMatch(/session W1/);
    expect(await ownerOf(clash)).toBe(from);
    expect(await svc.curationOfStudy(s)).toEqual([]);
    // Relabelled (an act of its own), the merge goes through.
    must(await svc.reassignRecording(clash, { session: 'W1 (second entry)' }));
    must(await svc.mergeParticipants(from, into, 'entered twice'));
    expect(await ownerOf(clash)).toBe(into);
  });

  it('surfaces the same audio under both, and keeps the survivor’s attributes where they disagree', async () => {
    const { s, into, from } = await study();
    const a = await seedRecording(svc.store, s, into, { recordedAt: daysAgo(20), session: 'W1' });
    const b = await seedRecording(svc.store, s, from, { recordedAt: daysAgo(20), session: 'W1b' });
    await svc.store.run(`UPDATE recordings SET content_sha256 = 'same' WHERE id IN (?, ?)`, [a, b]);
    await writeAttributes(
      svc.store,
      [
        { participantId: into, key: 'arm', value: 'A' },
        { participantId: from, key: 'arm', value: 'B' },
        { participantId: from, key: 'site', value: 'Leeds' },
      ],
      daysAgo(30),
    );
    const preview = must(await svc.previewMerge(from, into));
    expect(preview).toMatchObject({
      duplicates: [{ from: b, into: a }],
      attributeConflicts: [{ key: 'arm', from: 'B', into: 'A' }],
      refusal: null,
    });
    const done = must(await svc.mergeParticipants(from, into, 'entered twice'));
    expect(done.warning).toMatch(
      new RegExp(`same audio is under both participants: recording ${b} \\(was P-017\\) and recording ${a}`),
    );
    expect(done.warning).toMatch(/Kept P-007's arm "A" \(not "B"\)/);
    expect(await attributesOfParticipant(svc.store, into)).toEqual({ arm: 'A', site: 'Leeds' });
    expect((await auditPage(svc.store, 0, 1)).rows[0]!.detail).toMatchObject({ duplicates: 1 });
  });

  it('undo restores both participants: recordings, provenance, attributes and the mark', async () => {
    const { s, into, from } = await study();
    const sent = await seedRecording(svc.store, s, from, { recordedAt: daysAgo(13), session: 'W2' });
    await writeAttributes(svc.store, [{ participantId: from, key: 'site', value: 'Leeds' }], daysAgo(30));
    const done = must(await svc.mergeParticipants(from, into, 'entered twice'));
    const undo = must(await svc.undoCuration(done.act, 'not the same person after all'));
    expect(await ownerOf(sent)).toBe(from);
    expect(await provenanceOf(sent)).toBeNull();
    expect(await attributesOfParticipant(svc.store, into)).toEqual({});
    expect(await attributesOfParticipant(svc.store, from)).toEqual({ site: 'Leeds' });
    expect(await figures(from)).toEqual({ rec_count: 1, merged_into: null });
    const [u, m] = await svc.curationOfParticipant(from);
    expect(u).toMatchObject({ id: undo.act, act: 'undo', undoes: done.act, participantId: from });
    expect(m).toMatchObject({ id: done.act, undoneBy: undo.act, undoable: false });
    expect((await svc.curationOfParticipant(into)).map((a) => a.id)).toEqual([undo.act, done.act]);
    expect((await auditPage(svc.store, 0, 1)).rows[0]).toMatchObject({
      kind: 'curation_undone',
      detail: { undoes: done.act, undone: 'merge', participant_id: from },
    });
    expect((await verifyAuditChain(svc.store)).ok).toBe(true);
  });

  it('refuses to undo once a moved recording has been moved on, and refuses odd merges', async () => {
    const { s, into, from, other } = await study();
    const r = await seedRecording(svc.store, s, from, { recordedAt: daysAgo(13) });
    const done = must(await svc.mergeParticipants(from, into, 'entered twice'));
    must(await svc.reassignRecording(r, { participantId: other }));
    expect(refusal(await svc.undoCuration(done.act))).toMatch(/changed since this merge/);
    expect(refusal(await svc.mergeParticipants(into, into, 'x'))).toMatch(/cannot be merged into itself/);
    expect(refusal(await svc.mergeParticipants(from, other, 'x'))).toMatch(/already merged/);
    expect(refusal(await svc.mergeParticipants(other, from, 'x'))).toMatch(/merge into that one instead/);
    expect(refusal(await svc.mergeParticipants(other, into, ''))).toMatch(/Say why/);
  });

  it('leaves the merged participant out of the expected visits: each visit is counted once', async () => {
    const { s, into, from } = await study();
    must(await svc.setStudyPeriod(s, { startDate: '2026-04-01', endDate: '2026-08-31', timeZone: 'UTC' }));
    must(
      await svc.setVisitSchedule(s, [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 2 },
        { name: 'Week 1', targetDay: 7, windowBefore: 2, windowAfter: 2 },
      ]),
    );
    await seedRecording(svc.store, s, into, { recordedAt: daysAgo(14), session: 'Baseline' });
    await seedRecording(svc.store, s, from, { recordedAt: daysAgo(7), session: 'Week 1' });
    const before = (await svc.visitLedger(s, NOW))!;
    expect(before.rows.filter((r) => r.participantId === from)).toHaveLength(2);
    must(await svc.mergeParticipants(from, into, 'entered twice'));
    const after = (await svc.visitLedger(s, NOW))!;
    expect(after.participants.map((p) => p.id)).not.toContain(from);
    const mine = after.rows.filter((r) => r.participantId === into);
    expect(mine.map((r) => [r.visit.name, r.recording !== null])).toEqual([
      ['Baseline', true],
      ['Week 1', true],
    ]);
    // Three participants before (2 visits each), two after: the merged one's visits are not counted.
    expect(before.rows).toHaveLength(6);
    expect(after.rows).toHaveLength(4);
  });
  it('files a later import under the retired code with the participant it was merged into', async () => {
    const { s, into, from } = await study();
    await seedRecording(svc.store, s, from, { recordedAt: daysAgo(13), session: 'W2' });
    must(await svc.mergeParticipants(from, into, 'entered twice: P-017 is P-007'));
    const rec = (path: string, code: string) => ({
      participantCode: code,
      sourcePath: path,
      uploadPath: null,
      sha256: `sha-${path}`,
      sizeBytes: 1000,
      format: 'wav',
      channels: 1,
      sampleRateHz: 16000,
      durationSeconds: 40,
      speechSeconds: 35,
      recordedAt: daysAgo(1),
      recordedAtSource: 'manifest',
      session: 'W4',
      state: 'pending' as const,
      error: null,
      verdict: 'ok',
      duplicateOf: null,
      duplicateOverride: false,
    });
    const { batchId } = await insertImportBatch(
      svc.store,
      {
        studyId: s,
        at: new Date(NOW).toISOString(),
        analyses: '[]',
        isolateOldestSpeaker: false,
        label: 'week 4',
        convertWav: false,
      },
      [rec('/study/P-017_W4.wav', 'P-017'), rec('/study/P-008_W4.wav', 'P-008')],
    );
    const owners = await svc.store.all(
      `SELECT p.code AS code FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE r.batch_id = ? ORDER BY r.id`,
      [batchId],
    );
    expect(owners).toEqual([{ code: 'P-007' }, { code: 'P-008' }]);
  });
});
