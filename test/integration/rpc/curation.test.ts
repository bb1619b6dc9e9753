/**
 * curation.*: the recording page's acts through the router (inputs and outputs checked against the
 * contract): exclude, restore, reassign with its warning, delete a never-sent recording, undo, and the
 * record of acts; a refusal is REFUSED in the researcher's words.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestHost, type TestHost } from './test-host';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy } from './seed';

let t: TestHost;
beforeEach(async () => {
  t = await openTestHost({ now: NOW });
});
afterEach(async () => {
  await t.close();
});

describe('curation.*', () => {
  it('excludes, shows it on the recording, restores, and lists the acts with undo', async () => {
    const s = await seedStudy(t.store, 'Voice');
    const a = await seedParticipant(t.store, s, 'P-001', { accountId: 'acct-a' });
    const r = await seedRecording(t.store, s, a, { recordedAt: daysAgo(2) });
    const ex = await t.must('curation.excludeRecording', { recordingId: r, reason: 'test recording' });
    expect(ex).toEqual({ act: expect.any(Number), warning: null });
    const state = await t.must('curation.recording', { recordingId: r });
    expect(state.excluded).toEqual({ at: new Date(NOW).toISOString(), reason: 'test recording' });
    expect(state.acts).toEqual([
      expect.objectContaining({ id: ex.act, act: 'exclude', reason: 'test recording', undoable: true }),
    ]);
    expect((await t.must('audit.list', {})).rows[0]).toMatchObject({ kind: 'recording_excluded' });
    await t.must('curation.restoreRecording', { recordingId: r });
    expect((await t.must('curation.recording', { recordingId: r })).excluded).toBeNull();
    expect((await t.must('curation.study', { studyId: s })).map((x) => x.act)).toEqual([
      'restore',
      'exclude',
    ]);
  });

  it('reassigns after upload with the warning, and undoes it', async () => {
    const s = await seedStudy(t.store, 'Voice');
    const a = await seedParticipant(t.store, s, 'P-001', { accountId: 'acct-a' });
    const b = await seedParticipant(t.store, s, 'P-002', { accountId: 'acct-b' });
    const r = await seedRecording(t.store, s, a, { recordedAt: daysAgo(2) });
    const done = await t.must('curation.reassignRecording', {
      recordingId: r,
      participantId: b,
      session: 'W4',
    });
    expect(done.warning).toMatch(/under participant P-001's account/);
    expect((await t.must('recordings.detail', { recordingId: r })).row).toMatchObject({
      participantId: b,
      session: 'W4',
    });
    expect((await t.must('curation.recording', { recordingId: r })).provenance).toEqual([
      expect.objectContaining({ act: done.act }),
    ]);
    await t.must('curation.undoAct', { actId: done.act });
    expect((await t.must('recordings.detail', { recordingId: r })).row).toMatchObject({
      participantId: a,
      session: null,
    });
  });

  it('refuses to delete a sent recording (REFUSED, in words), deletes a never-sent one, and a reason is required to exclude', async () => {
    const s = await seedStudy(t.store, 'Voice');
    const a = await seedParticipant(t.store, s, 'P-001', { accountId: 'acct-a' });
    const sent = await seedRecording(t.store, s, a, { recordedAt: daysAgo(2) });
    const never = await seedRecording(t.store, s, a, {
      recordedAt: daysAgo(1),
      uploadState: 'refused_locally',
    });
    expect(await t.call('curation.deleteRecording', { recordingId: sent })).toMatchObject({
      ok: false,
      error: { code: 'REFUSED', message: expect.stringMatching(/never sent/) },
    });
    const del = await t.must('curation.deleteRecording', { recordingId: never, reason: 'second take' });
    expect(await t.call('recordings.detail', { recordingId: never })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    await t.must('curation.undoAct', { actId: del.act });
    expect((await t.must('recordings.detail', { recordingId: never })).row.uploadState).toBe(
      'refused_locally',
    );
    expect(await t.call('curation.excludeRecording', { recordingId: sent, reason: '' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
  });
});
