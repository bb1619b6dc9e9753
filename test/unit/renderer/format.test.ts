/** Dates on screen (renderer/src/lib/format.ts): ISO 8601 in tables, the researcher's locale in sentences. */
import { describe, expect, it } from 'vitest';
import { fmtDate, fmtDateTime, fmtLongDate } from '../../../renderer/src/lib/format';

describe('dates on screen', () => {
  const sixthOfJanuary = new Date(2026, 0, 6, 9, 30).toISOString();
  it('read the same in every country in tables: year, month, day, 24-hour local time', () => {
    expect(fmtDate(sixthOfJanuary)).toBe('2026-01-06');
    expect(fmtDateTime(sixthOfJanuary)).toBe('2026-01-06 09:30');
  });
  it('give the month in words in sentences, so they cannot be misread either', () => {
    expect(fmtLongDate(sixthOfJanuary)).toMatch(/2026/);
    expect(fmtLongDate(sixthOfJanuary)).not.toMatch(/^\d+\/\d+\/\d+$/);
  });
  it('show a dash for no date or one that cannot be read', () => {
    expect(fmtDate(null)).toBe('—');
    expect(fmtDateTime('not a date')).toBe('—');
  });
});
