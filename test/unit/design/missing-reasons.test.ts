/** Missing-data reasons: what each recording outcome says, and one row per expected visit with values or a reason. */
import { describe, expect, it } from 'vitest';
import {
  completenessOf,
  outcomeOf,
  visitRowsOf,
  type AccountedParticipant,
  type AccountedRecording,
  type OutcomeFacts,
} from '../../../shared/visit-accounting';
import type { VisitDef } from '../../../shared/visits';

const facts = (f: Partial<OutcomeFacts>): OutcomeFacts => ({
  uploadState: 'uploaded',
  analyses: ['completed'],
  verdictStatus: 'accepted',
  refusals: [],
  errorType: null,
  excludedReason: null,
  ...f,
});

describe('what a recording says about its visit', () => {
  it('is usable when uploaded with a completed analysis', () => {
    expect(outcomeOf(facts({ analyses: ['completed', 'error'] }))).toEqual({ usable: true });
  });

  it('names the reason and its detail otherwise', () => {
    const cases: [Partial<OutcomeFacts>, string, string | null][] = [
      [{ analyses: ['processing'] }, 'in_progress', 'analysis not answered yet'],
      [{ analyses: ['error'] }, 'failed', 'analysis error'],
      [{ analyses: ['timed_out'] }, 'timed_out', 'timed_out, re-checking'],
      [{ analyses: ['unanswered'] }, 'timed_out', 'unanswered'],
      [{ uploadState: 'rejected', errorType: 'TooLarge' }, 'refused_by_service', 'TooLarge'],
      [
        { uploadState: 'refused_locally', verdictStatus: 'refused', refusals: ['too_short', 'silent'] },
        'refused_locally',
        'too_short silent',
      ],
      [{ uploadState: 'refused_locally', verdictStatus: 'borderline' }, 'held', 'borderline speech estimate'],
      [{ uploadState: 'duplicate' }, 'held', 'possible duplicate'],
      [{ uploadState: 'upload_uncertain' }, 'held', 'upload outcome unknown'],
      [{ uploadState: 'pending' }, 'in_progress', 'waiting for a service account'],
      [{ uploadState: 'queued' }, 'in_progress', 'waiting to upload'],
      [{ excludedReason: 'test file' }, 'excluded', 'test file'],
    ];
    for (const [f, reason, detail] of cases)
      expect(outcomeOf(facts(f)), JSON.stringify(f)).toEqual({ usable: false, reason, detail });
  });

  it('says nothing for a cancelled file', () => {
    expect(outcomeOf(facts({ uploadState: 'cancelled' }))).toBeNull();
  });
});

const visits: VisitDef[] = [0, 7, 14].map((d, i) => ({
  id: i + 1,
  position: i + 1,
  name: `V${i + 1}`,
  targetDay: d,
  windowBefore: 1,
  windowAfter: 1,
}));
const who = (p: Partial<AccountedParticipant> = {}): AccountedParticipant => ({
  id: 1,
  code: 'P01',
  status: 'active',
  statusOn: null,
  statusReason: null,
  baseline: '2026-01-05',
  ...p,
});
const rec = (id: number, visitId: number | null, date: string, o: AccountedRecording['outcome']) => ({
  id,
  visitId,
  date,
  outcome: o,
});
const open = { startDate: null, endDate: null };

describe('one row per expected visit', () => {
  it('gives the usable recording, the first by date, and counts the others', () => {
    const rows = visitRowsOf(
      visits,
      who(),
      [
        rec(3, 1, '2026-01-06', { usable: true }),
        rec(2, 1, '2026-01-05', { usable: false, reason: 'failed', detail: 'analysis error' }),
        rec(4, 1, '2026-01-05', { usable: true }),
      ],
      open,
      '2026-02-01',
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ recording: 4, reason: null, detail: null, recordingsInVisit: 3 });
  });

  it('without a usable recording gives the reason nearest to a result, with its recording', () => {
    const rows = visitRowsOf(
      visits,
      who(),
      [
        rec(5, 2, '2026-01-12', { usable: false, reason: 'refused_locally', detail: 'too_short' }),
        rec(6, 2, '2026-01-13', { usable: false, reason: 'refused_by_service', detail: 'BadRequest' }),
        rec(7, 2, '2026-01-12', null),
      ],
      open,
      '2026-02-01',
    );
    expect(rows[1]).toMatchObject({
      recording: 6,
      reason: 'refused_by_service',
      detail: 'BadRequest',
      recordingsInVisit: 2,
    });
  });

  it('explains visits without recordings: not recorded, not yet due, withdrawn', () => {
    const today = '2026-01-13';
    expect(visitRowsOf(visits, who(), [], open, today).map((r) => [r.reason, r.detail])).toEqual([
      ['not_recorded', null],
      ['not_yet_due', 'window closes 2026-01-13'],
      ['not_yet_due', 'window closes 2026-01-20'],
    ]);
    const withdrawn = who({ status: 'withdrawn', statusOn: '2026-01-10', statusReason: 'moved away' });
    expect(visitRowsOf(visits, withdrawn, [], open, today).map((r) => r.reason)).toEqual([
      'not_recorded',
      'withdrawn',
      'withdrawn',
    ]);
    expect(visitRowsOf(visits, withdrawn, [], open, today)[1]!.detail).toBe('moved away');
  });

  it('without a baseline: not yet due while the study runs, not recorded once it has ended', () => {
    const p = who({ baseline: null });
    expect(visitRowsOf(visits, p, [], open, '2026-03-01').map((r) => r.reason)).toEqual([
      'not_yet_due',
      'not_yet_due',
      'not_yet_due',
    ]);
    expect(
      visitRowsOf(visits, p, [], { startDate: null, endDate: '2026-02-01' }, '2026-03-01').map(
        (r) => r.reason,
      ),
    ).toEqual(['not_recorded', 'not_recorded', 'not_recorded']);
  });

  it('a visit whose window opens after the study’s end is not recorded, with that detail', () => {
    const rows = visitRowsOf(visits, who(), [], { startDate: null, endDate: '2026-01-15' }, '2026-01-10');
    expect(rows[2]).toMatchObject({
      reason: 'not_recorded',
      detail: 'window opens after the study end (2026-01-15)',
    });
  });

  it('counts the table: expected, present and each reason, per visit', () => {
    const rows = [
      ...visitRowsOf(visits, who(), [rec(1, 1, '2026-01-05', { usable: true })], open, '2026-01-13'),
      ...visitRowsOf(visits, who({ id: 2, code: 'P02', baseline: null }), [], open, '2026-01-13'),
    ];
    const table = completenessOf(visits, rows);
    expect(table.map((l) => [l.visit.name, l.expected, l.present])).toEqual([
      ['V1', 2, 1],
      ['V2', 2, 0],
      ['V3', 2, 0],
    ]);
    expect(table[1]!.missing.not_yet_due).toBe(2);
    expect(table[0]!.missing.not_yet_due).toBe(1);
    expect(Object.values(table[0]!.missing).reduce((a, b) => a + b, 0) + table[0]!.present).toBe(2);
  });
});
