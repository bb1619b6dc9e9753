/**
 * Cells: formula neutralisation of free text (never of numbers), and row encoding that is
 * byte-identical to csv-stringify encoding the whole row, for any row, including the long form's
 * scoped encoder that reuses segments across rows.
 */
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createRowEncoder,
  CSV_OPTIONS,
  neutraliseFormula,
  toCell,
  undoNeutralisation,
  type Cell,
} from '../../../main/export/cells';
import type { ExportColumn, Scope } from '../../../main/export/column';
import { createScopedEncoder, csvFormat } from '../../../main/export/scoped-rows';

const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    ' x',
    'x ',
    'a,b',
    'say "hi"',
    'line\nbreak',
    'cr\ronly',
    'crlf\r\n',
    '=1+1',
    '-5',
    '\uFEFFbom',
    'Zoë 東京',
  ),
);
const cell: fc.Arbitrary<Cell> = fc.oneof(
  text,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constant(null),
);

describe('formula neutralisation', () => {
  it('prefixes text that spreadsheets would run, and text starting with the prefix itself', () => {
    for (const s of ['=SUM(A1)', '+1', '-1', '@x', '\tx', '\rx', "'x", '\uFF1Dx'])
      expect(neutraliseFormula(s)).toBe(`'${s}`);
    for (const s of ['P01', '', ' =x', 'a=b', '5']) expect(neutraliseFormula(s)).toBe(s);
  });

  it('can always be undone by dropping one leading quote', () => {
    fc.assert(fc.property(fc.string(), (s) => undoNeutralisation(neutraliseFormula(s)) === s));
  });

  it('is never applied to numbers, nor to columns not marked as free text', () => {
    expect(toCell({ neutralised: true }, -5)).toBe(-5);
    expect(toCell({ neutralised: false }, '-5')).toBe('-5');
    expect(toCell({ neutralised: true }, '-5')).toBe("'-5");
  });

  it('writes missing values and non-finite numbers as empty cells, booleans as true/false', () => {
    expect(toCell({ neutralised: false }, null)).toBeNull();
    expect(toCell({ neutralised: false }, undefined)).toBeNull();
    expect(toCell({ neutralised: false }, Number.NaN)).toBeNull();
    expect(toCell({ neutralised: false }, Number.POSITIVE_INFINITY)).toBeNull();
    expect(toCell({ neutralised: false }, 0)).toBe(0);
    expect(toCell({ neutralised: false }, true)).toBe('true');
    expect(toCell({ neutralised: false }, false)).toBe('false');
  });
});

describe('row encoding', () => {
  it('is byte-identical to csv-stringify on the whole row, for any row', () => {
    const enc = createRowEncoder();
    fc.assert(
      fc.property(fc.array(cell, { minLength: 2, maxLength: 12 }), (row) => {
        expect(enc.row(row)).toBe(stringify([row], CSV_OPTIONS));
      }),
      { numRuns: 2000 },
    );
  });

  it('quotes a lone line feed or carriage return, and leading or trailing spaces', () => {
    const enc = createRowEncoder();
    expect(enc.row(['a\nb', 'c\rd', ' e', 'f ', 'g'])).toBe('"a\nb","c\rd"," e","f ",g');
  });

  it("the long form's scoped encoder gives the same lines as encoding each row whole, as text or as bytes, also with cells taken from another encoder", () => {
    type Ctx = { rec: string; pair: string; measure: string; value: Cell };
    const scopes: Scope[] = ['recording', 'recording', 'pair', 'measure', 'row', 'measure', 'recording'];
    const get: ((c: Ctx) => Cell)[] = [
      (c) => c.rec,
      (c) => `${c.rec}!`,
      (c) => c.pair,
      (c) => c.measure,
      (c) => c.value,
      (c) => `${c.measure}?`,
      (c) => c.rec.length,
    ];
    const cols = scopes.map(
      (scope, i) =>
        ({
          name: `c${i}`,
          title: '',
          type: 'string',
          description: '',
          required: false,
          neutralised: i === 0,
          scope,
          get: get[i]!,
        }) as ExportColumn<Ctx> & { scope: Scope },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            rec: text,
            pairs: fc.array(
              fc.record({
                pair: text,
                rows: fc.array(fc.record({ measure: fc.constantFrom('m1', 'm,2', 'm"3'), value: cell }), {
                  maxLength: 5,
                }),
              }),
              { maxLength: 3 },
            ),
          }),
          { maxLength: 4 },
        ),
        (recs) => {
          const scoped = createScopedEncoder(cols);
          // A format with text around each row, as the workbook's <row> element.
          const framed = createScopedEncoder(cols, null, { ...csvFormat(), start: '<row>', end: '</row>' });
          // The workbook's sheet takes the cells the CSV's encoder has just read: only a measure's are its own to read.
          const unread = cols.map((c) =>
            c.scope === 'measure'
              ? c
              : {
                  ...c,
                  get: () => {
                    throw new Error(`${c.name} was read again`);
                  },
                },
          );
          const borrowing = createScopedEncoder(unread, null, {
            ...csvFormat(),
            start: '<row>',
            end: '</row>',
          });
          const plain = createRowEncoder();
          for (const r of recs) {
            const ctx = { rec: r.rec } as Ctx;
            scoped.recording(ctx);
            framed.recording(ctx);
            borrowing.recording(ctx, scoped);
            for (const p of r.pairs) {
              ctx.pair = p.pair;
              scoped.pair(ctx);
              framed.pair(ctx);
              borrowing.pair(ctx, scoped);
              for (const row of p.rows) {
                ctx.measure = row.measure;
                ctx.value = row.value;
                const whole = plain.row(cols.map((c) => toCell(c, c.get(ctx))));
                expect(scoped.row(ctx, row.measure)).toBe(whole);
                const pieces: string[] = [];
                scoped.rowInto(ctx, row.measure, { piece: (t) => pieces.push(t) });
                expect(pieces.join('')).toBe(whole);
                // The workbook's form: repeated pieces as ready-made bytes, the row's own cells as text.
                const bytes: Buffer[] = [];
                scoped.rowBytesInto(ctx, row.measure, {
                  piece: (t) => bytes.push(Buffer.from(t)),
                  putBytes: (b) => bytes.push(Buffer.from(b)),
                });
                expect(Buffer.concat(bytes).toString('utf8')).toBe(whole);
                const framedBytes: Buffer[] = [];
                framed.rowBytesInto(ctx, row.measure, {
                  piece: (t) => framedBytes.push(Buffer.from(t)),
                  putBytes: (b) => framedBytes.push(Buffer.from(b)),
                });
                expect(Buffer.concat(framedBytes).toString('utf8')).toBe(`<row>${whole}</row>`);
                const borrowed: Buffer[] = [];
                borrowing.rowBytesInto(
                  ctx,
                  row.measure,
                  {
                    piece: (t) => borrowed.push(Buffer.from(t)),
                    putBytes: (b) => borrowed.push(Buffer.from(b)),
                  },
                  scoped,
                );
                expect(Buffer.concat(borrowed).toString('utf8')).toBe(`<row>${whole}</row>`);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
