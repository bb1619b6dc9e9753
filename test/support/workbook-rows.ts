/**
 * Rows into a workbook as the export writes them: through the table's CSV (its text sink), whose bytes
 * the workbook turns into the sheet. Waits when the CSV or the workbook asks to.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { ExportColumn } from '../../main/export/column';
import { CsvSink, sha256Digest, TextSink } from '../../main/export/csv-sink';
import type { Workbook } from '../../main/export/workbook';

export const writeRowsThroughCsv = async <C>(
  book: Workbook,
  dir: string,
  file: string,
  columns: readonly ExportColumn<C>[],
  rows: Iterable<C>,
): Promise<void> => {
  const text = new TextSink(file, createWriteStream(join(dir, file)), sha256Digest(), book.feed(file));
  const csv = new CsvSink(text, columns, false);
  for (const r of rows) {
    csv.row(r);
    if (text.blocked) await text.ready();
    if (book.blocked) await book.ready();
  }
  await text.close('data', csv.rows);
};
