/** Timestamps: UTC cells, local wall-clock times and offsets in any zone (the per-day cache agrees with Intl at every instant), and date bounds. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExportRequestSchema } from '../../../shared/export';
import { boundToUtcMs, utcCell, utcSelection, zonedClock } from '../../../main/export/time';

/** The local time and offset straight from Intl, for comparison. */
const direct = (ms: number, timeZone: string): { local: string; offset: string } => {
  const p: Record<string, string> = {};
  for (const x of new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms))
    p[x.type] = x.value;
  const local = `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}:${p['second']}`;
  const off = Math.round((Date.parse(`${local.replace(' ', 'T')}Z`) - Math.floor(ms / 1000) * 1000) / 60_000);
  const a = Math.abs(off);
  return {
    local,
    offset: `${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`,
  };
};

describe('time cells', () => {
  it('writes UTC as ISO 8601 with Z, fractions only when present, and nothing for a missing time', () => {
    expect(utcCell('2024-03-05T09:30:00.000Z')).toBe('2024-03-05T09:30:00Z');
    expect(utcCell('2024-03-05T10:30:00.250+01:00')).toBe('2024-03-05T09:30:00.250Z');
    expect(utcCell(null)).toBeNull();
    expect(utcCell('not a date')).toBeNull();
  });

  it('gives the same local time and offset as Intl, in zones with daylight saving, half and quarter hours', () => {
    for (const tz of [
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'UTC',
    ]) {
      const clock = zonedClock(tz);
      fc.assert(
        fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), (ms) => {
          expect(clock(new Date(ms).toISOString()), `${tz} ${new Date(ms).toISOString()}`).toEqual(
            direct(ms, tz),
          );
        }),
        { numRuns: 1500 },
      );
      // Around each daylight-saving change of 2024, minute by minute.
      for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2025, 0, 1); ms += 86_400_000) {
        const a = direct(ms, tz).offset,
          b = direct(ms + 86_400_000, tz).offset;
        if (a === b) continue;
        for (let t = ms; t <= ms + 86_400_000; t += 60_000)
          expect(clock(new Date(t).toISOString())).toEqual(direct(t, tz));
      }
    }
  });

  it('reads a date bound as the whole day in the zone, an instant as itself', () => {
    expect(new Date(boundToUtcMs('2024-03-31', 'Europe/Berlin', 'from')).toISOString()).toBe(
      '2024-03-30T23:00:00.000Z',
    );
    expect(new Date(boundToUtcMs('2024-03-31', 'Europe/Berlin', 'to')).toISOString()).toBe(
      '2024-03-31T21:59:59.999Z',
    );
    expect(new Date(boundToUtcMs('2024-12-31', 'UTC', 'to')).toISOString()).toBe('2024-12-31T23:59:59.999Z');
    expect(boundToUtcMs('2024-03-31T12:00:00+02:00', 'UTC', 'from')).toBe(Date.UTC(2024, 2, 31, 10));
    // Santiago's clocks skip midnight on the first Sunday of September: the day starts at 01:00.
    expect(new Date(boundToUtcMs('2024-09-08', 'America/Santiago', 'from')).toISOString()).toBe(
      '2024-09-08T04:00:00.000Z',
    );
  });

  it('hands the repository its date bounds already in UTC, the day read in the export time zone', () => {
    const req = ExportRequestSchema.parse({
      studyId: 7,
      participants: ['P01'],
      from: '2024-03-31',
      to: '2024-03-31',
      sessions: [''],
      timeZone: 'Europe/Berlin',
    });
    expect(utcSelection(req)).toEqual({
      studyId: 7,
      participants: ['P01'],
      fromUtc: '2024-03-30T23:00:00.000Z',
      toUtc: '2024-03-31T21:59:59.999Z',
      sessions: [''],
      analyses: undefined,
      states: undefined,
    });
    expect(utcSelection({ ...req, from: undefined, to: undefined })).toMatchObject({
      fromUtc: undefined,
      toUtc: undefined,
    });
  });
});
