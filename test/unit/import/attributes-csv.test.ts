/** Participant attributes from a CSV: participant_code first, then one column per attribute. */
import { describe, expect, it } from 'vitest';
import { readAttributesCsv } from '../../../main/import/attributes-csv';

describe('readAttributesCsv', () => {
  it('reads a file saved with a byte-order mark and tab separators (as spreadsheet programs write it)', () => {
    const r = readAttributesCsv('\ufeffparticipant_code\tarm\tsite\r\nP-1\tplacebo\t\r\n');
    expect(r.ok && r.value.keys).toEqual(['arm', 'site']);
    expect(r.ok && [...r.value.rows[0]!.values]).toEqual([['arm', 'placebo']]);
  });

  it('refuses a file whose first column is not participant_code, or with no attribute, or a column twice', () => {
    expect(readAttributesCsv('code,arm\nP-1,x\n')).toMatchObject({ ok: false });
    expect(readAttributesCsv('participant_code\nP-1\n')).toMatchObject({ ok: false });
    expect(readAttributesCsv('participant_code,arm,ARM\nP-1,x,y\n')).toMatchObject({ ok: false });
  });

  it('says which rows were left out and why', () => {
    const r = readAttributesCsv(`participant_code,arm\n,x\nP-2,${'y'.repeat(201)}\nP-3,z\n`);
    expect(r.ok && r.value.problems).toEqual([
      'Line 2: no participant code; the row was left out.',
      'Line 3: a value is longer than 200 characters or holds control characters; the row was left out.',
    ]);
    expect(r.ok && r.value.rows.map((x) => x.code)).toEqual(['P-3']);
  });
});
