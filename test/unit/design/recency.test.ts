/**
 * Overdue and missed visits come from the study's visit schedule: none before a visit's window has
 * closed, none after the schedule's last visit, and without a schedule only the time since the last
 * recording.
 */
import { describe, expect, it } from 'vitest';
import { recencyOf, type RecencyScope, type ScheduleProgress } from '../../../shared/recency';
import type { VisitDef } from '../../../shared/visits';

// Baseline, Week 1 and Week 2, each with a window of 3 days either side.
const visits: VisitDef[] = [
  { id: 1, position: 1, name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 3 },
  { id: 2, position: 2, name: 'Week 1', targetDay: 7, windowBefore: 3, windowAfter: 3 },
  { id: 3, position: 3, name: 'Week 2', targetDay: 14, windowBefore: 3, windowAfter: 3 },
];
const active: RecencyScope = { status: 'active', startDate: null, endDate: null };
const at = (date: string) => Date.parse(`${date}T12:00:00Z`);
const progress = (today: string, attended: number[]): ScheduleProgress => ({
  visits,
  baseline: '2024-01-01',
  attended: new Set(attended),
  today,
});

describe('data recency against the visit schedule', () => {
  it('without a schedule says only how long ago the last recording was, however long that is', () => {
    expect(recencyOf('2025-01-10T10:00:00Z', at('2026-11-28'), active, null)).toEqual({
      status: 'no_schedule',
      daysSinceLast: 687,
      missedVisits: 0,
    });
    const empty = { ...progress('2026-11-28', [1]), visits: [] };
    expect(recencyOf('2025-01-10T10:00:00Z', at('2026-11-28'), active, empty).status).toBe('no_schedule');
  });

  it('after the schedule has ended counts only its visits, not weeks up to today', () => {
    const r = recencyOf('2024-01-15T10:00:00Z', at('2026-11-28'), active, progress('2026-11-28', [1, 2, 3]));
    expect(r).toEqual({ status: 'on_track', daysSinceLast: 1048, missedVisits: 0 });
    const missedLast = recencyOf(
      '2024-01-08T10:00:00Z',
      at('2026-11-28'),
      active,
      progress('2026-11-28', [1, 2]),
    );
    expect(missedLast).toEqual({ status: 'overdue', daysSinceLast: 1055, missedVisits: 1 });
  });

  it('does not count a visit whose window has not closed yet', () => {
    // Week 2's window is 2024-01-12 to 2024-01-18: on its last day it is not missed, the day after it is.
    expect(
      recencyOf('2024-01-08T10:00:00Z', at('2024-01-18'), active, progress('2024-01-18', [1, 2])).status,
    ).toBe('on_track');
    expect(
      recencyOf('2024-01-08T10:00:00Z', at('2024-01-19'), active, progress('2024-01-19', [1, 2])).status,
    ).toBe('overdue');
  });

  it('counts one missed visit once, whatever came after it', () => {
    expect(
      recencyOf('2024-01-15T10:00:00Z', at('2024-02-01'), active, progress('2024-02-01', [1, 3])),
    ).toEqual({ status: 'overdue', daysSinceLast: 17, missedVisits: 1 });
  });

  it('follows only active participants while the study runs', () => {
    const withdrawn = { ...active, status: 'withdrawn' as const };
    expect(recencyOf(null, at('2024-02-01'), withdrawn, progress('2024-02-01', [])).status).toBe(
      'not_followed',
    );
    const ended = { ...active, endDate: '2024-01-31' };
    expect(recencyOf(null, at('2024-02-01'), ended, progress('2024-02-01', [])).status).toBe('not_followed');
  });

  it('without a baseline nothing can be missed', () => {
    const none = { ...progress('2026-11-28', []), baseline: null };
    expect(recencyOf(null, at('2026-11-28'), active, none)).toEqual({
      status: 'never',
      daysSinceLast: null,
      missedVisits: 0,
    });
  });
});
