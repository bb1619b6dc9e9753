/**
 * study.xlsx: the export as one Excel workbook, for those who live in Excel: a sheet per CSV with typed
 * cells (numbers, true/false, dates and times Excel understands, text exactly as it was before the
 * formula neutralisation, which a text cell of a workbook does not need), then a `codebook` sheet (one
 * row per column of every sheet) and a `settings` sheet.
 *
 * Written in the same pass as the CSVs, from the same cells: each table's sheet is SpreadsheetML
 * (sheet-xml.ts) deflated by zlib as its rows come into a hidden part file beside the CSVs, through a
 * sink that makes the pass wait when zlib or the disk is behind, so memory stays bounded whatever the
 * export's size. At the end the parts are copied, still deflated, into the zip (fflate's streaming Zip)
 * after the package's small parts, and deleted. A sheet that would pass Excel's 1,048,576 rows
 * continues on `<name> (2)`.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback, type TransformOptions } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, type ZlibOptions } from 'node:zlib';
import { strToU8, Zip, ZipDeflate, type ZipInputFile } from 'fflate';
import type { FileDef, WrittenFile } from '../../shared/export';
import { undoNeutralisation, type Cell } from './cells';
import type { ExportColumn, Scope } from './column';
import { TextSink, type SheetRows } from './csv-sink';
import { createScopedEncoder, type RowFormat, type ScopedEncoder } from './scoped-rows';
import {
  booleanCell,
  dateCell,
  EMPTY_CELL,
  numberCell,
  packageParts,
  sharedStringsXml,
  sharedTextCell,
  SHARED_STRINGS,
  SHEET_END,
  sheetStart,
  textCell,
  worksheetPart,
  xmlRow,
  type SheetColumn,
} from './sheet-xml';
import { statTable, type StatVariable } from './stat-variables';

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
/** Bytes of a sheet's deflated XML its part file's stream may hold before zlib waits for the disk. */
const IN_FLIGHT_BYTES = 1024 * 1024;
/**
 * Bytes of XML handed to zlib at a time. zlib deflates on a thread of Node's pool, but each hand-over
 * costs the export's own thread too: 100 MB of the long sheet's XML (level 3) took that thread 90-100 ms
 * in 128 KB chunks and 40-60 ms in 512 KB ones (three runs each), about 0.8 s less over the 1.9 GB of
 * sheets of a 100,000-recording export.
 */
const SHEET_CHUNK_BYTES = 512 * 1024;
/**
 * Bytes of XML zlib may hold before the pass waits for it: two chunks, so the pass goes on writing
 * while zlib deflates the chunk before (zlib's own default, 16 KB, made the pass wait on every chunk).
 * zlib is handed its next chunk only on a turn of the event loop, which the pass gives every 2 ms.
 */
const ZLIB_QUEUE_BYTES = 2 * SHEET_CHUNK_BYTES;
/** zlib's output buffer: large enough for what a chunk deflates to, so each chunk is one hand-over. */
const ZLIB_OUTPUT_BYTES = 64 * 1024;

export interface WorkbookDescription {
  /** The tables' descriptions, for the codebook sheet. */
  readonly tables: readonly FileDef[];
  /** Rows of the settings sheet (the codebook's settings table). */
  readonly settings: readonly (readonly [string, string])[];
  /** Said first on the settings sheet when values are simulated. */
  readonly warning: string | null;
  /** When the export was made (ISO 8601): every part's time in the zip, so the same export is the same file. */
  readonly exportedAt: string;
}

const text = (s: string): string =>
  s.length <= EXCEL_MAX_CHARS ? s : s.slice(0, EXCEL_MAX_CHARS - CUT_NOTE.length) + CUT_NOTE;

/**
 * The workbook's shared strings, bounded: short strings (codes, labels, units, keys), which repeat
 * down the sheets, are written once in the shared-strings part and referred to by number, until the
 * table is full; any other text is held in its cell.
 */
class SharedStrings {
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
 * it neither fills the shared strings nor costs a lookup per cell. New to the column, not to the
 * shared strings: another sheet's column may have shared the same file names first.
 */
const textColumnCells = (strings: SharedStrings): ((s: string) => string) => {
  let looked = 0;
  /** The column's own values during its trial; dropped once it is judged. */
  let seen: Set<string> | null = new Set();
  let sharing = true;
  // The column's last value and its cell: consecutive rows often repeat a value (a participant's
  // recordings, a recording's analyses), which then costs no lookup. A value's cell is always the same
  // while the column shares, and again once it no longer does.
  let last: string | null = null;
  let lastCell = '';
  const judge = (s: string): void => {
    seen!.add(s);
    if (++looked < SHARING_TRIAL) return;
    sharing = seen!.size * 2 <= looked;
    seen = null;
    last = null;
  };
  return (s) => {
    if (s === last) {
      if (seen) judge(s);
      return lastCell;
    }
    if (!sharing) return (lastCell = textCell((last = s)));
    const cell = strings.cell(s);
    last = s;
    lastCell = cell;
    if (seen) judge(s);
    return cell;
  };
};

/** The XML of one cell, from the value the CSV writes. */
type CellXml = (c: Cell) => string;

/**
 * The same cell's XML again when a column's row repeats the value of the row before (a participant's
 * baseline dates and values on each of their summary rows): made once, not parsed and formatted again.
 */
const sameAsBefore = (xml: CellXml): CellXml => {
  let last: Cell = null;
  let lastXml = EMPTY_CELL;
  return (c) => {
    if (c !== last) lastXml = xml((last = c));
    return lastXml;
  };
};

/** A time as the instant `parse` reads from it, or the text itself when it is not one. */
const dateXml = (parse: (c: string) => number): CellXml =>
  sameAsBefore((c) => {
    if (c === null || c === '') return EMPTY_CELL;
    const ms = parse(String(c));
    return Number.isNaN(ms) ? textCell(String(c)) : dateCell(ms);
  });

const TRUE_CELL = booleanCell(true);
const FALSE_CELL = booleanCell(false);

const cellXml = (v: StatVariable, neutralised: boolean, strings: SharedStrings): CellXml => {
  switch (v.kind) {
    case 'integer':
    case 'number':
      return sameAsBefore((c) => {
        if (c === null || c === '') return EMPTY_CELL;
        const n = typeof c === 'number' ? c : Number(c);
        return Number.isFinite(n) ? numberCell(n) : textCell(String(c));
      });
    case 'boolean':
      return (c) => (c === 'true' ? TRUE_CELL : c === 'false' ? FALSE_CELL : EMPTY_CELL);
    case 'utc':
      return dateXml(Date.parse);
    // Wall-clock time: written as that clock reading (Excel dates have no zone).
    case 'local':
      return dateXml((c) => Date.parse(`${c.replace(' ', 'T')}Z`));
    default: {
      const shared = textColumnCells(strings);
      return (c) =>
        c === null || c === ''
          ? EMPTY_CELL
          : shared(text(neutralised ? undoNeutralisation(String(c)) : String(c)));
    }
  }
};

/** A value of the codebook or settings sheet. */
const plainCell = (v: string | boolean | null): string =>
  v === null ? EMPTY_CELL : typeof v === 'boolean' ? booleanCell(v) : textCell(text(v));

const headerRow = (names: readonly string[]): string => xmlRow(names.map((n) => textCell(n)).join(''));

const widthOf = (v: StatVariable): number =>
  v.kind === 'utc' || v.kind === 'local'
    ? 20
    : v.kind === 'text'
      ? Math.min(40, Math.max(12, v.name.length + 2))
      : Math.max(10, v.name.length + 2);

/**
 * A sheet's XML, deflated, in a part file: what the zip needs to take it as it is. The part is a gzip
 * file (RFC 1952): zlib computes the CRC-32 a zip entry carries on its own thread, where it deflates,
 * and writes it in the file's trailer; the zip takes the deflated data between the header and the trailer.
 */
interface DeflatedPart {
  readonly title: string;
  readonly path: string;
  /** Bytes of the sheet's XML. */
  readonly size: number;
  readonly crc: number;
  /** Where the deflated data lies in the part file: from `start` up to `end`. */
  readonly start: number;
  readonly end: number;
}

/** A gzip file's header as zlib writes it (no name, comment or extra field) and its trailer. */
const GZIP_HEADER_BYTES = 10;
const GZIP_TRAILER_BYTES = 8;
const GZIP_ID = [0x1f, 0x8b] as const;

/** The CRC-32 and the place of the deflated data of a gzip part file zlib wrote from `size` bytes. */
const gzipFacts = async (
  path: string,
  size: number,
): Promise<{ crc: number; start: number; end: number }> => {
  const f = await open(path, 'r');
  try {
    const length = (await f.stat()).size;
    const head = Buffer.alloc(GZIP_HEADER_BYTES);
    const tail = Buffer.alloc(GZIP_TRAILER_BYTES);
    await f.read(head, 0, GZIP_HEADER_BYTES, 0);
    await f.read(tail, 0, GZIP_TRAILER_BYTES, length - GZIP_TRAILER_BYTES);
    // FLG 0: no optional fields, so the data starts right after the fixed header; ISIZE is the XML's size modulo 2^32.
    if (
      head[0] !== GZIP_ID[0] ||
      head[1] !== GZIP_ID[1] ||
      head[3] !== 0 ||
      tail.readUInt32LE(4) !== size % 2 ** 32
    )
      throw new Error(`The workbook's part ${path} is not the gzip file zlib was given to write.`);
    return { crc: tail.readUInt32LE(0), start: GZIP_HEADER_BYTES, end: length - GZIP_TRAILER_BYTES };
  } finally {
    await f.close();
  }
};

/** Bytes of deflated XML gathered before they are written to a part file. */
const PART_WRITE_BYTES = 256 * 1024;

/**
 * Gathers zlib's output into writes of `PART_WRITE_BYTES`: zlib hands over a few kilobytes for each
 * chunk of XML it deflates, and each write to a file costs the export's thread a hand-over to the
 * file system's thread, as each chunk to zlib does.
 */
const gathered = (): Transform => {
  let held: Buffer[] = [];
  let bytes = 0;
  const release = (t: Transform): void => {
    if (bytes > 0) t.push(Buffer.concat(held, bytes));
    held = [];
    bytes = 0;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      held.push(chunk);
      bytes += chunk.length;
      if (bytes >= PART_WRITE_BYTES) release(this);
      done();
    },
    flush(done: TransformCallback) {
      release(this);
      done();
    },
  });
};

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
    // zlib's streams are Transform streams and take a Transform's options (Node's types list only zlib's).
    const options: ZlibOptions & TransformOptions = {
      level: SHEET_LEVEL,
      chunkSize: ZLIB_OUTPUT_BYTES,
      writableHighWaterMark: ZLIB_QUEUE_BYTES,
    };
    const gzip = createGzip(options);
    this.written = pipeline(
      gzip,
      gathered(),
      createWriteStream(path, { flags: 'wx', highWaterMark: IN_FLIGHT_BYTES }),
    );
    this.written.catch(() => {});
    this.sink = new TextSink(title, gzip, null, SHEET_CHUNK_BYTES);
    this.sink.write(start);
  }

  async close(): Promise<DeflatedPart> {
    this.sink.write(SHEET_END);
    const f = await this.sink.close('workbook', this.rows);
    await this.written;
    return { title: this.title, path: this.path, size: f.bytes, ...(await gzipFacts(this.path, f.bytes)) };
  }
}

const hasScopes = <C>(
  columns: readonly ExportColumn<C>[],
): columns is readonly (ExportColumn<C> & { readonly scope: Scope })[] => columns.every((c) => 'scope' in c);

/** One table's sheet, continued on `<key> (2)`, `<key> (3)`… past `maxRows` rows. */
class TableSheet<C> implements SheetRows<C> {
  private part: SheetPart;
  private parts = 1;
  private readonly closed: Promise<DeflatedPart>[] = [];
  private readonly cells: readonly CellXml[];
  private readonly start: string;
  private readonly scoped: ScopedEncoder<C> | null;

  constructor(
    private readonly book: Workbook,
    private readonly key: string,
    def: FileDef,
    columns: readonly ExportColumn<C>[],
  ) {
    const variables = statTable(def, 0).variables;
    this.cells = variables.map((v, i) => cellXml(v, def.columns[i]?.neutralised ?? false, book.strings));
    const layout: SheetColumn[] = variables.map((v) => ({
      width: widthOf(v),
      date: v.kind === 'utc' || v.kind === 'local',
    }));
    this.start = sheetStart(layout) + headerRow(variables.map((v) => v.name));
    this.part = book.openPart(key, this.start);
    const format: RowFormat = {
      encode: (cells, first) => {
        let xml = '';
        for (let i = 0; i < cells.length; i++) xml += this.cells[first + i]!(cells[i]!);
        return xml;
      },
      separator: '',
      start: '<row>',
      end: '</row>',
    };
    this.scoped = hasScopes(columns) ? createScopedEncoder(columns, null, format) : null;
  }

  /** The part the next row goes into, a new one when the current is full. */
  private next(): TextSink {
    if (this.part.rows === this.book.maxRows) {
      this.closed.push(this.part.close());
      this.part = this.book.openPart(`${this.key} (${++this.parts})`, this.start);
    }
    this.part.rows++;
    return this.part.sink;
  }

  row(cells: readonly Cell[]): void {
    const sink = this.next();
    let xml = '<row>';
    for (let i = 0; i < cells.length; i++) xml += this.cells[i]!(cells[i]!);
    sink.write(xml + '</row>');
  }

  scope(scope: 'recording' | 'pair', ctx: C, from: ScopedEncoder<C>): void {
    this.scoped?.[scope](ctx, from);
  }

  scopedRow(ctx: C, measureKey: string, from: ScopedEncoder<C>): void {
    this.scoped?.rowBytesInto(ctx, measureKey, this.next(), from);
  }

  get sink(): TextSink {
    return this.part.sink;
  }

  /** Every part of the table, in order, once written. */
  async close(): Promise<DeflatedPart[]> {
    this.closed.push(this.part.close());
    return Promise.all(this.closed);
  }
}

/**
 * A zip stores a part's time as a calendar date and clock time without a zone, from 1980 to 2099, which
 * fflate takes from a Date's local fields: the Date given has the export's UTC time in them (held within
 * that range), so the file does not depend on this computer's time zone.
 */
const ZIP_TIMES = [Date.UTC(1980, 0, 1), Date.UTC(2099, 11, 31)] as const;
const zipTime = (iso: string): Date => {
  const ms = Math.min(Math.max(Date.parse(iso), ZIP_TIMES[0]), ZIP_TIMES[1]);
  return new Date(ms + new Date(ms).getTimezoneOffset() * 60_000);
};

/** Bytes of a deflated part read at a time when it is copied into the zip; one buffer serves every read. */
const COPY_BYTES = 1024 * 1024;

/**
 * Writes the zip's bytes into the file, hashing them. fflate hands each piece of the zip to a callback;
 * the pieces are written, in order, before the next part is read, so a part file is copied through one
 * reused buffer and the copy adds nothing to the process's memory whatever the workbook's size.
 */
class ZipOut {
  readonly zip: Zip;
  private readonly pending: Uint8Array[] = [];
  private readonly hash = createHash('sha256');
  private readonly copyBuffer = Buffer.allocUnsafe(COPY_BYTES);
  private failure: Error | null = null;
  bytes = 0;

  private constructor(
    private readonly file: FileHandle,
    private readonly mtime: Date,
  ) {
    this.zip = new Zip((e, chunk) => {
      if (e) this.failure ??= e;
      else this.pending.push(chunk);
    });
  }

  static async create(path: string, mtime: Date): Promise<ZipOut> {
    return new ZipOut(await open(path, 'wx'), mtime);
  }

  /** Writes what fflate has handed over so far. */
  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    for (const chunk of this.pending.splice(0)) {
      this.hash.update(chunk);
      this.bytes += chunk.length;
      for (let at = 0; at < chunk.length;)
        at += (await this.file.write(chunk, at, chunk.length - at)).bytesWritten;
    }
  }

  /** A small part, deflated by fflate. */
  async add(name: string, xml: string): Promise<void> {
    const entry = new ZipDeflate(name, { level: 6 });
    entry.mtime = this.mtime;
    this.zip.add(entry);
    entry.push(strToU8(xml), true);
    await this.flush();
  }

  /** A sheet already deflated, copied from its part file as it is. */
  async addDeflated(name: string, part: DeflatedPart): Promise<void> {
    const entry: ZipInputFile = {
      filename: name,
      size: part.size,
      crc: part.crc,
      compression: 8,
      mtime: this.mtime,
    };
    this.zip.add(entry);
    const source = await open(part.path, 'r');
    try {
      for (let at = part.start; at < part.end;) {
        const { bytesRead } = await source.read(this.copyBuffer, 0, Math.min(COPY_BYTES, part.end - at), at);
        if (bytesRead === 0) throw new Error(`The workbook's part ${part.path} ended early.`);
        at += bytesRead;
        entry.ondata!(null, this.copyBuffer.subarray(0, bytesRead) as Uint8Array<ArrayBuffer>, false);
        await this.flush();
      }
    } finally {
      await source.close();
    }
    entry.ondata!(null, new Uint8Array(0), true);
    await this.flush();
  }

  async close(): Promise<{ bytes: number; sha256: string }> {
    this.zip.end();
    await this.flush();
    await this.file.close();
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  async abandon(): Promise<void> {
    await this.file.close().catch(() => {});
  }
}

const codebookXml = (tables: readonly FileDef[]): string =>
  sheetStart([22, 28, 32, 10, 10, 30, 12, 80].map((width) => ({ width, date: false }))) +
  headerRow(['sheet', 'column', 'title', 'type', 'unit', 'allowed_values', 'never_empty', 'meaning']) +
  tables
    .flatMap((t) =>
      t.columns.map((c) =>
        xmlRow(
          [
            t.name.replace(/\.csv$/, ''),
            c.name,
            c.title,
            c.type,
            c.unit ?? null,
            c.enum ? c.enum.join(', ') : c.range ? `${c.range[0]} to ${c.range[1]}` : null,
            c.required,
            c.description,
          ]
            .map(plainCell)
            .join(''),
        ),
      ),
    )
    .join('') +
  SHEET_END;

const settingsXml = (d: WorkbookDescription): string =>
  sheetStart([40, 80].map((width) => ({ width, date: false }))) +
  headerRow(['setting', 'value']) +
  [...(d.warning ? [['Simulated values', d.warning] as const] : []), ...d.settings]
    .map(([k, v]) => xmlRow(plainCell(k) + plainCell(v)))
    .join('') +
  SHEET_END;

/**
 * The workbook being written beside the CSVs: `sheet()` gives each CSV sink its table's sheet, the pass
 * waits on `blocked`/`ready()` like on the CSVs, and `finish()` writes study.xlsx once the settings are
 * known.
 */
export class Workbook {
  private readonly sheets = new Map<string, TableSheet<never>>();
  private seq = 0;
  readonly strings = new SharedStrings();
  /** Data rows per sheet. */
  readonly maxRows: number;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly tables: readonly FileDef[],
    /** Rows per sheet, the header included, before it continues on the next (tests make it small). */
    sheetRows = EXCEL_MAX_ROWS,
  ) {
    this.maxRows = sheetRows - 1;
  }

  /** @internal A new part file for a sheet titled `title`, its XML begun with `start`. */
  openPart(title: string, start: string): SheetPart {
    return new SheetPart(title, join(this.dir, `.${this.name}.sheet-${++this.seq}`), start);
  }

  /** The sheet of the table written to `file`, whose rows have these columns. */
  sheet<C>(file: string, columns: readonly ExportColumn<C>[]): SheetRows<C> {
    const def = this.tables.find((t) => t.name === file);
    if (!def) throw new Error(`No table ${file} in this export.`);
    const sheet = new TableSheet(this, file.replace(/\.csv$/, ''), def, columns);
    this.sheets.set(file, sheet as unknown as TableSheet<never>);
    return sheet;
  }

  get blocked(): boolean {
    for (const s of this.sheets.values()) if (s.sink.blocked) return true;
    return false;
  }

  async ready(): Promise<void> {
    for (const s of this.sheets.values()) await s.sink.ready();
  }

  /** Ends every sheet and writes the workbook: the package's parts, the tables' sheets, the codebook and settings. */
  async finish(d: WorkbookDescription): Promise<WrittenFile> {
    const parts: DeflatedPart[] = [];
    for (const t of this.tables) {
      const sheet = this.sheets.get(t.name);
      if (sheet) parts.push(...(await sheet.close()));
    }
    const titles = [...parts.map((p) => p.title), 'codebook', 'settings'];
    const zip = await ZipOut.create(join(this.dir, this.name), zipTime(d.exportedAt));
    try {
      for (const [path, xml] of packageParts(titles, 'Voicescope')) await zip.add(path, xml);
      for (const [i, part] of parts.entries()) {
        await zip.addDeflated(worksheetPart(i), part);
        await rm(part.path);
      }
      await zip.add(worksheetPart(parts.length), codebookXml(d.tables));
      await zip.add(worksheetPart(parts.length + 1), settingsXml(d));
      await zip.add(SHARED_STRINGS, this.strings.xml());
      return { name: this.name, role: 'workbook', rows: null, ...(await zip.close()) };
    } catch (e) {
      await zip.abandon();
      throw e;
    }
  }

  /** Stops every sheet's writing (the export is being abandoned; its folder is removed). */
  async abandon(): Promise<void> {
    await Promise.all([...this.sheets.values()].map((s) => s.sink.abandon()));
  }
}
