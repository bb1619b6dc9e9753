/**
 * The workbook's shared strings hold what repeats down a sheet (codes, labels, units), not values
 * that are new on every row (file names, identifiers, checksums): a text column whose first thousand
 * values were mostly new holds its text in each cell from then on. Every cell keeps its value either way.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, expect, it } from 'vitest';
import type { FileDef } from '../../../shared/export';
import { col } from '../../../main/export/column';
import { Workbook } from '../../../main/export/workbook';

type Row = readonly [code: string, file: string];
const columns = [
  col<Row>('code', 'string', 'Code', 'A code that repeats.', (r) => r[0]),
  col<Row>('file_name', 'string', 'File name', 'A name new on every row.', (r) => r[1]),
];
const table: FileDef = {
  name: 'recordings.csv',
  role: 'data',
  title: 'Recordings',
  rowIs: 'A recording.',
  description: 'Recordings.',
  primaryKey: [],
  foreignKeys: [],
  columns,
};

const ROWS = 3_000;
const CODES = 20;
const rowOf = (i: number): Row => [`P-${i % CODES}`, `P-${i}_s${i}.wav`];

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const writeWorkbook = async (rowAt: (i: number) => Row = rowOf): Promise<Record<string, string>> => {
  dir = mkdtempSync(join(tmpdir(), 'vs-workbook-strings-'));
  const book = new Workbook(dir, 'study.xlsx', [table]);
  const sheet = book.sheet('recordings.csv', columns);
  for (let i = 0; i < ROWS; i++) sheet.row(rowAt(i));
  await book.finish({ tables: [table], settings: [], warning: null, exportedAt: '2025-01-01T00:00:00.000Z' });
  const zip = unzipSync(readFileSync(join(dir, 'study.xlsx')));
  return Object.fromEntries(Object.entries(zip).map(([k, v]) => [k, strFromU8(v)]));
};

/** Each data row's cells as text, the shared ones looked up. */
const cellsOf = (sheetXml: string, shared: readonly string[]): string[][] =>
  [...sheetXml.matchAll(/<row>(.*?)<\/row>/g)]
    .slice(1)
    .map(([, row]) =>
      [...row!.matchAll(/<c t="s"><v>(\d+)<\/v><\/c>|<c t="inlineStr"><is><t>([^<]*)<\/t><\/is><\/c>/g)].map(
        ([, index, inline]) => (index !== undefined ? shared[Number(index)]! : inline!),
      ),
    );

it('shares a repeating column, and stops sharing a column of new values after its first thousand', async () => {
  const parts = await writeWorkbook();
  const shared = [...parts['xl/sharedStrings.xml']!.matchAll(/<si><t>([^<]*)<\/t><\/si>/g)].map((m) => m[1]!);
  expect(shared.filter((s) => s.startsWith('P-') && !s.endsWith('.wav'))).toHaveLength(CODES);
  expect(shared.filter((s) => s.endsWith('.wav'))).toHaveLength(1_000);
  const sheet = parts['xl/worksheets/sheet1.xml']!;
  expect(sheet.match(/<c t="inlineStr">/g)).toHaveLength(2 + ROWS - 1_000);
  expect(cellsOf(sheet, shared)).toEqual(Array.from({ length: ROWS }, (_, i) => [...rowOf(i)]));
});

it("judges a column whose values come in runs (a participant's recordings) by every row, so it stays shared", async () => {
  const inRuns = (i: number): Row => [`P-${Math.floor(i / 2)}`, `P-${i}_s${i}.wav`];
  const parts = await writeWorkbook(inRuns);
  const shared = [...parts['xl/sharedStrings.xml']!.matchAll(/<si><t>([^<]*)<\/t><\/si>/g)].map((m) => m[1]!);
  expect(shared.filter((s) => s.startsWith('P-') && !s.endsWith('.wav'))).toHaveLength(ROWS / 2);
  expect(cellsOf(parts['xl/worksheets/sheet1.xml']!, shared)).toEqual(
    Array.from({ length: ROWS }, (_, i) => [...inRuns(i)]),
  );
});

it('judges a column by its own values: a second sheet of the same file names stops sharing too', async () => {
  dir = mkdtempSync(join(tmpdir(), 'vs-workbook-strings-'));
  const wide: FileDef = { ...table, name: 'measures_wide.csv', title: 'Wide' };
  const book = new Workbook(dir, 'study.xlsx', [table, wide]);
  const sheets = [book.sheet('recordings.csv', columns), book.sheet('measures_wide.csv', columns)];
  // Row by row, both sheets, as the export's pass writes them.
  for (let i = 0; i < ROWS; i++) for (const sheet of sheets) sheet.row(rowOf(i));
  await book.finish({
    tables: [table, wide],
    settings: [],
    warning: null,
    exportedAt: '2025-01-01T00:00:00.000Z',
  });
  const zip = unzipSync(readFileSync(join(dir, 'study.xlsx')));
  const part = (name: string) => strFromU8(zip[name]!);
  const shared = [...part('xl/sharedStrings.xml').matchAll(/<si><t>([^<]*)<\/t><\/si>/g)].map((m) => m[1]!);
  expect(shared.filter((s) => s.endsWith('.wav'))).toHaveLength(1_000);
  for (const sheet of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']) {
    expect(part(sheet).match(/<c t="inlineStr">/g), sheet).toHaveLength(2 + ROWS - 1_000);
    expect(cellsOf(part(sheet), shared)).toEqual(Array.from({ length: ROWS }, (_, i) => [...rowOf(i)]));
  }
});
