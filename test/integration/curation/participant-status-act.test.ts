/**
 * A participant's status change is a curation act (docs/curation.md): who, when, the status
 * before and after, an audit entry, listed among the participant's acts, and undone from there (the
 * status before comes back and the change leaves the status history).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditPage, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import { participantStatus, statusHistory } from '../../../main/db/repos/participant-status.repo';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { NOW, seedParticipant, seedStudy } from '../rpc/seed';

let root: string;
let svc: StudyService;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'vs-status-act-'));
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

describe("a participant's status change", () => {
  it('is an act with who, when, before and after, and an audit entry; undo restores the status and its history', async () => {
    const s = await seedStudy(svc.store, 'Voice');
    const p = await seedParticipant(svc.store, s, 'P-001');
    must(await svc.setParticipantStatus(p, { status: 'completed', on: '2026-05-01' }, NOW));
    must(
      await svc.setParticipantStatus(p, { status: 'withdrawn', on: '2026-05-20', reason: 'moved away' }, NOW),
    );
    const [w, c] = await svc.curationOfParticipant(p);
    expect(w).toMatchObject({
      act: 'status',
      who: 'Dr. Ada',
      at: new Date(NOW).toISOString(),
      participantId: p,
      reason: 'moved away',
      before: { status: 'completed', on: '2026-05-01', reason: null },
      after: { status: 'withdrawn', on: '2026-05-20', reason: 'moved away' },
      undoable: true,
    });
    expect(c).toMatchObject({ act: 'status', before: { status: 'active', on: null } });
    expect((await auditPage(svc.store, 0, 1)).rows[0]).toMatchObject({
      id: w!.auditId,
      kind: 'participant_status_changed',
      detail: { act: w!.id, participant_id: p, before: 'completed', after: 'withdrawn', who: 'dr._ada' },
    });

    // Undo the newest first; the older one is refused while a later change stands.
    const refused = await svc.undoCuration(c!.id);
    expect(refused.ok).toBe(false);
    const undo = must(await svc.undoCuration(w!.id, 'withdrawn by mistake'));
    expect(await participantStatus(svc.store, p)).toMatchObject({
      status: 'completed',
      statusOn: '2026-05-01',
      statusReason: null,
    });
    expect((await statusHistory(svc.store, p)).map((h) => h.status)).toEqual(['completed']);
    expect((await svc.curationOfParticipant(p))[0]).toMatchObject({
      id: undo.act,
      act: 'undo',
      undoes: w!.id,
    });
    expect((await auditPage(svc.store, 0, 1)).rows[0]).toMatchObject({
      kind: 'curation_undone',
      detail: { undoes: w!.id, undone: 'status', participant_id: p },
    });
    must(await svc.undoCuration(c!.id));
    expect(await participantStatus(svc.store, p)).toMatchObject({ status: 'active', statusOn: null });
    expect(await statusHistory(svc.store, p)).toEqual([]);
    expect((await verifyAuditChain(svc.store)).ok).toBe(true);
  });
});
