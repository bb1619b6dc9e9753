/**
 * study.xlsx: the export as one Excel workbook, for those who live in Excel: a sheet per CSV with typed
 * cells (numbers, true/false, dates and times Excel understands, text exactly as it was before the
 * formula neutralisation, which a text cell of a workbook does not need), then a `codebook` sheet (one
 * row per column of every sheet) and a `settings` sheet. Written after the CSVs by reading them back,
 * one sheet at a time through exceljs's streaming writer, so memory stays bounded; a sheet that would
 * pass Excel's 1,048,576 rows continues on `<name> (2)`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import type { FileDef, WrittenFile } from '../../shared/export';
import { undoNeutralisation } from './cells';
import { ExportCancelled } from './problems';
import type { StatTable, StatVariable } from './stat-variables';

/** Excel's rows per sheet, the header included. */
export const EXCEL_MAX_ROWS = 1_048_576;
/** Excel's characters per cell. */
export const EXCEL_MAX_CHARS = 32_767;
const CUT_NOTE = ' [cut at Excel’s 32,767 characters; the full text is in the CSV]';
const DATE_TIME = 'yyyy-mm-dd hh:mm:ss';

export interface WorkbookOptions {
  /** The tables' descriptions, for the codebook sheet. */
  readonly tables: readonly FileDef[];
  /** Rows of the settings sheet (the codebook's settings table). */
  readonly settings: readonly (readonly [string, string])[];
  /** Said first on the settings sheet when values are simulated. */
  readonly warning: string | null;
  readonly signal?: AbortSignal | undefined;
  /** Rows per sheet before it continues on the next (tests make it small). */
  readonly maxRows?: number;
}

type Value = string | number | boolean | Date | null;

const text = (s: string): string =>
  s.length <= EXCEL_MAX_CHARS ? s : s.slice(0, EXCEL_MAX_CHARS - CUT_NOTE.length) + CUT_NOTE;

/** The typed cell of one CSV field. */
const converter = (v: StatVariable, neutralised: boolean): ((cell: string) => Value) => {
  switch (v.kind) {
    case 'integer':
    case 'number':
      return (c) => (c === '' ? null : Number(c));
    case 'boolean':
      return (c) => (c === 'true' ? true : c === 'false' ? false : null);
    case 'utc':
      return (c) => (c === '' ? null : new Date(c));
    // Wall-clock time: written as that clock reading (Excel dates have no zone).
    case 'local':
      return (c) => (c === '' ? null : new Date(`${c.replace(' ', 'T')}Z`));
    default:
      return (c) => (c === '' ? null : text(neutralised ? undoNeutralisation(c) : c));
  }
};

const widthOf = (v: StatVariable): number =>
  v.kind === 'utc' || v.kind === 'local'
    ? 20
    : v.kind === 'text'
      ? Math.min(40, Math.max(12, v.name.length + 2))
      : Math.max(10, v.name.length + 2);

const sheetColumns = (t: StatTable) =>
  t.variables.map((v) => ({
    header: v.name,
    key: v.name,
    width: widthOf(v),
    ...(v.kind === 'utc' || v.kind === 'local' ? { style: { numFmt: DATE_TIME } } : {}),
  }));

const hashFile = async (path: string): Promise<{ bytes: number; sha256: string }> => {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    h.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: h.digest('hex') };
};

export const writeWorkbook = async (
  dir: string,
  name: string,
  tables: readonly StatTable[],
  o: WorkbookOptions,
): Promise<WrittenFile> => {
  const path = join(dir, name);
  const maxRows = (o.maxRows ?? EXCEL_MAX_ROWS) - 1;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useStyles: true,
    useSharedStrings: false,
  });
  wb.creator = 'Voicescope';
  const sheet = (title: string) => wb.addWorksheet(title, { views: [{ state: 'frozen', ySplit: 1 }] });
  for (const t of tables) {
    const def = o.tables.find((d) => d.name === t.file);
    const convert = t.variables.map((v, i) => converter(v, def?.columns[i]?.neutralised ?? false));
    let part = 1;
    let ws = sheet(t.key);
    ws.columns = sheetColumns(t);
    let rows = 0;
    const parser = createReadStream(join(dir, t.file)).pipe(parse({ bom: true, from_line: 2 }));
    for await (const record of parser as AsyncIterable<string[]>) {
      if (rows === maxRows) {
        ws.commit();
        ws = sheet(`${t.key} (${++part})`);
        ws.columns = sheetColumns(t);
        rows = 0;
      }
      const values: Value[] = new Array<Value>(convert.length);
      for (let i = 0; i < convert.length; i++) values[i] = convert[i]!(record[i] ?? '');
      ws.addRow(values).commit();
      rows++;
      if ((rows & 4095) === 0 && o.signal?.aborted) throw new ExportCancelled();
    }
    ws.commit();
  }

  const codebook = sheet('codebook');
  codebook.columns = [
    { header: 'sheet', key: 'sheet', width: 22 },
    { header: 'column', key: 'column', width: 28 },
    { header: 'title', key: 'title', width: 32 },
    { header: 'type', key: 'type', width: 10 },
    { header: 'unit', key: 'unit', width: 10 },
    { header: 'allowed_values', key: 'allowed', width: 30 },
    { header: 'never_empty', key: 'required', width: 12 },
    { header: 'meaning', key: 'meaning', width: 80 },
  ];
  for (const t of o.tables)
    for (const c of t.columns)
      codebook
        .addRow([
          t.name.replace(/\.csv$/, ''),
          c.name,
          c.title,
          c.type,
          c.unit ?? null,
          c.enum ? c.enum.join(', ') : c.range ? `${c.range[0]} to ${c.range[1]}` : null,
          c.required,
          text(c.description),
        ])
        .commit();
  codebook.commit();

  const settings = sheet('settings');
  settings.columns = [
    { header: 'setting', key: 'setting', width: 40 },
    { header: 'value', key: 'value', width: 80 },
  ];
  if (o.warning) settings.addRow(['Simulated values', o.warning]).commit();
  for (const [k, v] of o.settings) settings.addRow([k, text(v)]).commit();
  settings.commit();

  await wb.commit();
  return { name, role: 'workbook', rows: null, ...(await hashFile(path)) };
};
