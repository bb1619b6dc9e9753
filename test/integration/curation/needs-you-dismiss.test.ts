/**
 * Dismissing a needs-you item with a reason, through the study service (docs/curation.md): the
 * item leaves the needs-you lists, is listed as dismissed with who, when and why, is an act and an audit
 * entry, and undo brings it back. An unknown upload outcome cannot be dismissed; a dismissal lapses when
 * the recording moves on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditPage, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy } from '../rpc/seed';

let root: string;
let svc: StudyService;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vs-dismiss-'));
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
const listed = async (studyId: number, filter: 'needs_attention' | 'refused' | 'duplicates') =>
  (await svc.recordingPage({ studyId, filter, sort: 'id', dir: 'asc', offset: 0, limit: 50 })).rows.map(
    (r) => r.id,
  );

const study = async () => {
  const s = await seedStudy(svc.store, 'Voice');
  const a = await seedParticipant(svc.store, s, 'P-001', { accountId: 'acct-a' });
  const refused = await seedRecording(svc.store, s, a, {
    recordedAt: daysAgo(3),
    uploadState: 'refused_locally',
  });
  const dup = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(2), uploadState: 'duplicate' });
  const uncertain = await seedRecording(svc.store, s, a, {
    recordedAt: daysAgo(1),
    uploadState: 'upload_uncertain',
  });
  const fine = await seedRecording(svc.store, s, a, { recordedAt: daysAgo(1) });
  return { s, refused, dup, uncertain, fine };
};

describe('dismissing a needs-you item', () => {
  it('leaves the needs-you lists and is listed as dismissed with who, when and why; an act and an audit entry', async () => {
    const { s, refused, dup, uncertain } = await study();
    expect(await listed(s, 'needs_attention')).toEqual([refused, dup, uncertain]);
    const done = must(await svc.dismissNeedsYouItem(refused, 'test file, not a participant'));
    expect(await listed(s, 'needs_attention')).toEqual([dup, uncertain]);
    expect(await listed(s, 'refused')).toEqual([]);
    expect(await svc.dismissedNeedsYouItems(s)).toEqual([
      {
        recordingId: refused,
        path: expect.stringMatching(/\.wav$/),
        participantCode: 'P-001',
        uploadState: 'refused_locally',
        batchId: expect.any(Number),
        act: done.act,
        at: new Date(NOW).toISOString(),
        who: 'Dr. Ada',
        reason: 'test file, not a participant',
      },
    ]);
    expect((await svc.curationOfRecording(refused))[0]).toMatchObject({
      act: 'dismiss',
      reason: 'test file, not a participant',
      before: { dismissed: false, uploadState: 'refused_locally' },
      after: { dismissed: true, uploadState: 'refused_locally' },
      undoable: true,
    });
    expect((await auditPage(svc.store, 0, 1)).rows[0]).toMatchObject({
      kind: 'needs_you_dismissed',
      detail: { act: done.act, recording: refused, who: 'dr._ada' },
    });
    expect(JSON.stringify((await auditPage(svc.store, 0, 1)).rows[0])).not.toMatch(/test file|P-001/);
    // A held duplicate, too.
    must(await svc.dismissNeedsYouItem(dup, 'same take imported twice'));
    expect(await listed(s, 'duplicates')).toEqual([]);
    expect((await verifyAuditChain(svc.store)).ok).toBe(true);
  });

  it('undo brings the item back; it is not dismissed twice, nor without a reason', async () => {
    const { s, refused } = await study();
    expect(refusal(await svc.dismissNeedsYouItem(refused, ' '))).toMatch(/Say why/);
    const done = must(await svc.dismissNeedsYouItem(refused, 'test file'));
    expect(refusal(await svc.dismissNeedsYouItem(refused, 'again'))).toMatch(/already dismissed/);
    const undo = must(await svc.undoCuration(done.act, 'it matters after all'));
    expect(await listed(s, 'refused')).toEqual([refused]);
    expect(await svc.dismissedNeedsYouItems(s)).toEqual([]);
    expect((await svc.curationOfRecording(refused))[0]).toMatchObject({
      id: undo.act,
      act: 'undo',
      undoes: done.act,
    });
    expect((await auditPage(svc.store, 0, 1)).rows[0]).toMatchObject({
      kind: 'curation_undone',
      detail: { undoes: done.act, undone: 'dismiss' },
    });
  });

  it('refuses an unknown upload outcome (it needs a decision) and a recording that does not need you', async () => {
    const { uncertain, fine } = await study();
    expect(refusal(await svc.dismissNeedsYouItem(uncertain, 'x'))).toMatch(
      /outcome is unknown cannot be dismissed/,
    );
    expect(refusal(await svc.dismissNeedsYouItem(fine, 'x'))).toMatch(/does not need you/);
  });

  it('lapses when the recording moves on (sent anyway): undo then has nothing to bring back', async () => {
    const { s, refused } = await study();
    const done = must(await svc.dismissNeedsYouItem(refused, 'looked at it'));
    await svc.store.run(`UPDATE recordings SET upload_state = 'rejected' WHERE id = ?`, [refused]);
    expect(await listed(s, 'refused')).toEqual([refused]);
    expect(await svc.dismissedNeedsYouItems(s)).toEqual([]);
    expect(refusal(await svc.undoCuration(done.act))).toMatch(/moved on since it was dismissed/);
  });
  it('leaves the participant’s and the study’s "need you" figures, and comes back to them on undo', async () => {
    const { s, refused } = await study();
    const figures = async () => ({
      participant: (
        await svc.participantPage({ studyId: s, sort: 'code', dir: 'asc', offset: 0, limit: 10 }, NOW)
      ).rows[0]!.needsAttention,
      flagged: (
        await svc.participantPage(
          { studyId: s, filter: 'needs_attention', sort: 'code', dir: 'asc', offset: 0, limit: 10 },
          NOW,
        )
      ).total,
      study: (await svc.studyViews(NOW, [], s))[0]!.needsAttention,
    });
    expect(await figures()).toEqual({ participant: 3, flagged: 1, study: 3 });
    const done = must(await svc.dismissNeedsYouItem(refused, 'test file, not a participant'));
    expect(await figures()).toEqual({ participant: 2, flagged: 1, study: 2 });
    must(await svc.undoCuration(done.act, 'dismissed by mistake'));
    expect(await figures()).toEqual({ participant: 3, flagged: 1, study: 3 });
  });
});
