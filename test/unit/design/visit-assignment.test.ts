/** Visit assignment: the researcher's override, then the session label, then the date window; the baseline. */
import { describe, expect, it } from 'vitest';
import {
  addDays,
  assignVisit,
  baselineOf,
  daysBetween,
  isDate,
  localDate,
  scheduleProblems,
  windowOf,
  type VisitDef,
} from '../../../shared/visits';

const weekly: VisitDef[] = [0, 7, 14, 21].map((day, i) => ({
  id: 10 + i,
  position: i + 1,
  name: i === 0 ? 'Baseline' : `Week ${i}`,
  targetDay: day,
  windowBefore: i === 0 ? 0 : 2,
  windowAfter: 2,
}));

describe('calendar days', () => {
  it('counts whole days between dates, across months and leap days', () => {
    expect(daysBetween('2026-02-27', '2026-03-01')).toBe(2);
    expect(daysBetween('2028-02-27', '2028-03-01')).toBe(3);
    expect(daysBetween('2026-03-10', '2026-03-03')).toBe(-7);
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
  });

  it('takes a recording’s date in the study’s time zone', () => {
    expect(localDate('2026-03-01T23:30:00Z', 'UTC')).toBe('2026-03-01');
    expect(localDate('2026-03-01T23:30:00Z', 'Europe/Berlin')).toBe('2026-03-02');
    expect(localDate('2026-03-02T03:00:00Z', 'America/New_York')).toBe('2026-03-01');
  });

  it('knows a real date from a look-alike', () => {
    expect(isDate('2026-02-28')).toBe(true);
    expect(isDate('2026-02-30')).toBe(false);
    expect(isDate('26-02-28')).toBe(false);
  });
});

describe('the baseline', () => {
  it('is the date the researcher set, whatever the recordings', () => {
    expect(baselineOf({ set: '2026-01-05', recordings: [{ date: '2026-01-01', usable: true }] })).toEqual({
      date: '2026-01-05',
      source: 'researcher',
    });
  });

  it('is otherwise the first usable recording’s date, even after an earlier unusable one', () => {
    expect(
      baselineOf({
        set: null,
        recordings: [
          { date: '2026-01-09', usable: true },
          { date: '2026-01-02', usable: false },
          { date: '2026-01-16', usable: true },
        ],
      }),
    ).toEqual({ date: '2026-01-09', source: 'first_usable' });
  });

  it('falls back to the first recording of any kind, then to none', () => {
    expect(baselineOf({ set: null, recordings: [{ date: '2026-01-02', usable: false }] })).toEqual({
      date: '2026-01-02',
      source: 'first_recording',
    });
    expect(baselineOf({ set: null, recordings: [] })).toBeNull();
  });
});

describe('assigning a recording to a visit', () => {
  const base = '2026-01-05';

  it('follows the researcher’s override first, including "no visit"', () => {
    expect(assignVisit(weekly, base, { session: 'Week 1', date: '2026-01-12', override: 13 })).toEqual({
      visitId: 13,
      source: 'researcher',
      daysSinceBaseline: 7,
    });
    expect(assignVisit(weekly, base, { session: 'Week 1', date: '2026-01-12', override: null }).visitId).toBe(
      null,
    );
  });

  it('uses a session label naming a visit, ignoring case and spaces, whatever the date', () => {
    expect(assignVisit(weekly, base, { session: '  week   2 ', date: '2026-01-30' })).toEqual({
      visitId: 12,
      source: 'session',
      daysSinceBaseline: 25,
    });
  });

  it('otherwise places the date in a visit’s window, inclusive at both ends', () => {
    expect(assignVisit(weekly, base, { session: 'S3', date: '2026-01-10' })).toMatchObject({
      visitId: 11,
      source: 'window',
      daysSinceBaseline: 5,
    });
    expect(assignVisit(weekly, base, { session: null, date: '2026-01-14' }).visitId).toBe(11);
    expect(assignVisit(weekly, base, { session: null, date: '2026-01-15' }).visitId).toBe(null);
    expect(assignVisit(weekly, base, { session: null, date: '2026-01-15' }).source).toBe('none');
  });

  it('gives overlapping windows to the nearest target, then to the earlier visit', () => {
    const wide = weekly.map((v) => ({ ...v, windowBefore: 4, windowAfter: 4 }));
    expect(assignVisit(wide, base, { session: null, date: addDays(base, 10) }).visitId).toBe(11);
    expect(assignVisit(wide, base, { session: null, date: addDays(base, 11) }).visitId).toBe(12);
    const tie = [
      { ...weekly[1]!, windowAfter: 7 },
      { ...weekly[2]!, windowBefore: 7 },
    ];
    expect(assignVisit(tie, base, { session: null, date: addDays(base, 10) }).visitId).toBe(11);
    expect(assignVisit(tie, base, { session: null, date: addDays(base, 11) }).visitId).toBe(12);
  });

  it('without a baseline places only by session label or override', () => {
    expect(assignVisit(weekly, null, { session: null, date: '2026-01-05' })).toEqual({
      visitId: null,
      source: 'none',
      daysSinceBaseline: null,
    });
    expect(assignVisit(weekly, null, { session: 'Baseline', date: '2026-01-05' }).visitId).toBe(10);
  });

  it('gives each visit its window from the participant’s baseline', () => {
    expect(windowOf(weekly[1]!, base)).toEqual({ from: '2026-01-10', to: '2026-01-14' });
  });
});

describe('a schedule as written', () => {
  it('refuses empty and repeated names, negative windows and two visits on one day', () => {
    expect(scheduleProblems(weekly)).toEqual([]);
    expect(
      scheduleProblems([
        { name: 'A', targetDay: 0, windowBefore: 0, windowAfter: 0 },
        { name: ' a ', targetDay: 7, windowBefore: -1, windowAfter: 0 },
        { name: 'B', targetDay: 7, windowBefore: 0, windowAfter: 0 },
        { name: ' ', targetDay: 9, windowBefore: 0, windowAfter: 0 },
      ]),
    ).toEqual([
      'Two visits are named " a ": each name must be unique.',
      '" a ": windows are whole days, 0 or more.',
      'Every visit needs a name.',
      '" a " and "B" have the same target day.',
    ]);
  });
});
