/**
 * The workbook's sheet of one table, written from that table's CSV as its bytes come (csv-records.ts):
 * each record after the header becomes a row of typed cells (numbers, true/false, dates and times Excel
 * understands, text exactly as it was before the formula neutralisation, which a text cell does not
 * need), and the sheet's SpreadsheetML is deflated by zlib into a hidden part file, which the workbook
 * copies into the zip as it is. Its writing makes the caller wait when zlib or the disk is behind
 * (`blocked`, `ready`). A sheet that would pass Excel's 1,048,576 rows continues on `<name> (2)`.
 *
 * It runs in the workbook's worker thread (sheet-worker.ts), or in the export's own thread where no
 * worker can start: the same code either way.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createDeflateRaw } from 'node:zlib';
import { undoNeutralisation, type Cell } from './cells';
import { crc32Digest, TextSink } from './csv-sink';
import { CsvRecords } from './csv-records';
import {
  booleanCell,
  dateCell,
  EMPTY_CELL,
  numberCell,
  sharedStringsXml,
  sharedTextCell,
  SHEET_END,
  sheetStart,
  textCell,
  xmlRow,
  type SheetColumn,
} from './sheet-xml';

/** Excel's rows per sheet, the header included. */
export const EXCEL_MAX_ROWS = 1_048_576;
/** Excel's characters per cell. */
export const EXCEL_MAX_CHARS = 32_767;
const CUT_NOTE = ' [cut at Excel’s 32,767 characters; the full text is in the CSV]';
/**
 * zlib's level for the sheets, by measurement on the long sheet's XML (43 MB, 3,000 recordings): level 3
 * is both faster than 1 and 2 (577 against 460 MB/s: its longer matches over the rows' repeated cells
 * mean fewer of them) and smaller (1.24 against 1.60 MB); level 4 is three times slower for 5 % less.
 */
const SHEET_LEVEL = 3;
/** Bytes of XML zlib may hold before the writing waits for it. */
const IN_FLIGHT_BYTES = 1024 * 1024;

export const cutForExcel = (s: string): string =>
  s.length <= EXCEL_MAX_CHARS ? s : s.slice(0, EXCEL_MAX_CHARS - CUT_NOTE.length) + CUT_NOTE;

/**
 * The workbook's shared strings, bounded: short strings (codes, labels, units, keys), which repeat
 * down the sheets, are written once in the shared-strings part and referred to by number, until the
 * table is full; any other text is held in its cell.
 */
export class SharedStrings {
  private static readonly MAX_STRINGS = 16_384;
  private static readonly MAX_CHARS = 48;
  /** Each string with its cell. */
  private readonly cells = new Map<string, string>();

  get size(): number {
    return this.cells.size;
  }

  cell(s: string): string {
    if (s.length > SharedStrings.MAX_CHARS) return textCell(s);
    let cell = this.cells.get(s);
    if (cell === undefined) {
      if (this.cells.size >= SharedStrings.MAX_STRINGS) return textCell(s);
      this.cells.set(s, (cell = sharedTextCell(this.cells.size)));
    }
    return cell;
  }

  xml(): string {
    return sharedStringsXml(this.cells.keys());
  }
}

/** Values of a text column looked at before it is judged to repeat or not. */
const SHARING_TRIAL = 1_000;

/**
 * The cells of one text column: shared while its values repeat. A column whose first values were
 * mostly new ones (file names, identifiers, checksums) holds its text in each cell from then on, so
 * it neither fills the shared strings nor costs a lookup per cell.
 */
const textColumnCells = (strings: SharedStrings): ((s: string) => string) => {
  let looked = 0;
  let added = 0;
  let sharing = true;
  return (s) => {
    if (!sharing) return textCell(s);
    const before = strings.size;
    const cell = strings.cell(s);
    added += strings.size - before;
    if (++looked === SHARING_TRIAL) sharing = added * 2 <= looked;
    return cell;
  };
};

/** The XML of one cell, from the text the CSV holds. */
type CellXml = (c: string) => string;

/** A time as the instant `parse` reads from it, or the text itself when it is not one. */
const dateXml =
  (parse: (c: string) => number): CellXml =>
  (c) => {
    if (c === '') return EMPTY_CELL;
    const ms = parse(c);
    return Number.isNaN(ms) ? textCell(c) : dateCell(ms);
  };

const cellXml = (c: SheetCellKind, strings: SharedStrings): CellXml => {
  switch (c.kind) {
    case 'number':
      return (s) => {
        if (s === '') return EMPTY_CELL;
        const n = Number(s);
        return Number.isFinite(n) ? numberCell(n) : textCell(s);
      };
    case 'boolean':
      return (s) => (s === 'true' ? booleanCell(true) : s === 'false' ? booleanCell(false) : EMPTY_CELL);
    case 'utc':
      return dateXml(Date.parse);
    // Wall-clock time: written as that clock reading (Excel dates have no zone).
    case 'local':
      return dateXml((c) => Date.parse(`${c.replace(' ', 'T')}Z`));
    default: {
      const shared = textColumnCells(strings);
      return (s) => (s === '' ? EMPTY_CELL : shared(cutForExcel(c.neutralised ? undoNeutralisation(s) : s)));
    }
  }
};

/**
 * A column's cells with its last value remembered: consecutive rows repeat most of their cells (a
 * recording's participant, session and times on each of its long-form rows), which are then neither
 * parsed nor looked up again.
 */
const rememberingLast = (xml: CellXml): CellXml => {
  let last: string | null = null;
  let lastXml = '';
  return (s) => {
    if (s !== last) {
      lastXml = xml(s);
      last = s;
    }
    return lastXml;
  };
};

/** A value of the codebook or settings sheet. */
export const plainCell = (v: Cell | boolean): string =>
  v === null ? EMPTY_CELL : typeof v === 'boolean' ? booleanCell(v) : textCell(cutForExcel(String(v)));

export const headerRow = (names: readonly string[]): string => xmlRow(names.map((n) => textCell(n)).join(''));

/** A sheet's XML, deflated, in a part file: what the zip needs to take it as it is. */
export interface DeflatedPart {
  readonly title: string;
  readonly path: string;
  readonly size: number;
  readonly crc: number;
}

/** One worksheet being written: its XML through zlib into a part file. */
class SheetPart {
  readonly sink: TextSink;
  private readonly written: Promise<void>;
  rows = 0;

  constructor(
    readonly title: string,
    readonly path: string,
    start: string,
  ) {
    const deflate = createDeflateRaw({ level: SHEET_LEVEL });
    this.written = pipeline(
      deflate,
      createWriteStream(path, { flags: 'wx', highWaterMark: IN_FLIGHT_BYTES }),
    );
    this.written.catch(() => {});
    this.sink = new TextSink(title, deflate, crc32Digest());
    this.sink.write(start);
  }

  async close(): Promise<DeflatedPart> {
    this.sink.write(SHEET_END);
    const f = await this.sink.close('workbook', this.rows);
    await this.written;
    return { title: this.title, path: this.path, size: f.bytes, crc: parseInt(f.sha256, 16) };
  }
}

/** How a column's cells are written: by the kind of its values (text keeps its neutralisation undone). */
export type SheetCellKind =
  | { readonly kind: 'number' | 'boolean' | 'utc' | 'local' }
  | { readonly kind: 'text'; readonly neutralised: boolean };

/** A column of a sheet: its header, its width in characters, and its cells' kind. */
export type SheetColumnSpec = SheetCellKind & { readonly name: string; readonly width: number };

/** What a sheet is written from: its columns, its title and where its part files go. */
export interface SheetSpec {
  readonly columns: readonly SheetColumnSpec[];
  /** The sheet's title (the table's name without `.csv`); its continuations add ` (2)`, ` (3)`… */
  readonly title: string;
  /** Part file `n` (from 1) of the sheet is `${partPrefix}-${n}`. */
  readonly partPrefix: string;
  /** Data rows per sheet before it continues on the next. */
  readonly maxRows: number;
}

/** One table's sheet, from its CSV's bytes. */
export class SheetWriter {
  private readonly records = new CsvRecords();
  private readonly cells: readonly CellXml[];
  private readonly start: string;
  private readonly closed: Promise<DeflatedPart>[] = [];
  private part: SheetPart;
  private parts = 1;
  private header = true;

  constructor(
    private readonly spec: SheetSpec,
    strings: SharedStrings,
  ) {
    this.cells = spec.columns.map((c) => rememberingLast(cellXml(c, strings)));
    const layout: SheetColumn[] = spec.columns.map((c) => ({
      width: c.width,
      date: c.kind === 'utc' || c.kind === 'local',
    }));
    this.start = sheetStart(layout) + headerRow(spec.columns.map((c) => c.name));
    this.part = new SheetPart(spec.title, `${spec.partPrefix}-1`, this.start);
  }

  /** The rows these bytes of the CSV complete, into the sheet (the CSV's header is not a row). */
  push(bytes: Uint8Array): void {
    for (const fields of this.records.push(bytes)) {
      if (this.header) this.header = false;
      else this.row(fields);
    }
  }

  private row(fields: readonly string[]): void {
    if (fields.length !== this.cells.length)
      throw new Error(`A row of ${this.spec.title} has ${fields.length} cells, not ${this.cells.length}.`);
    if (this.part.rows === this.spec.maxRows) {
      this.closed.push(this.part.close());
      this.parts++;
      this.part = new SheetPart(
        `${this.spec.title} (${this.parts})`,
        `${this.spec.partPrefix}-${this.parts}`,
        this.start,
      );
    }
    this.part.rows++;
    let xml = '<row>';
    for (let i = 0; i < fields.length; i++) xml += this.cells[i]!(fields[i]!);
    this.part.sink.write(xml + '</row>');
  }

  get blocked(): boolean {
    return this.part.sink.blocked;
  }

  ready(): Promise<void> {
    return this.part.sink.ready();
  }

  /** Every part of the sheet, in order, once written. */
  async close(): Promise<DeflatedPart[]> {
    this.records.end();
    this.closed.push(this.part.close());
    return Promise.all(this.closed);
  }

  abandon(): Promise<void> {
    return this.part.sink.abandon();
  }
}
