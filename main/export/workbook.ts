/**
 * study.xlsx: the export as one Excel workbook, for those who live in Excel: a sheet per CSV with typed
 * cells (sheet-writer.ts), then a `codebook` sheet (one row per column of every sheet) and a `settings`
 * sheet.
 *
 * Written in the same pass as the CSVs, from the CSVs themselves: each CSV's bytes, as they are written,
 * also go to its sheet (sheets.ts), whose XML is built and deflated into a hidden part file beside the
 * CSVs in a worker thread, on the processor's other core; the export waits when the sheets are too far
 * behind, so memory stays bounded whatever the export's size. At the end the parts are copied, still
 * deflated, into the zip (fflate's streaming Zip) after the package's small parts, and deleted.
 */
import { createHash } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { strToU8, Zip, ZipDeflate, type ZipInputFile } from 'fflate';
import type { FileDef, WrittenFile } from '../../shared/export';
import { Sheets } from './sheets';
import {
  EXCEL_MAX_ROWS,
  headerRow,
  plainCell,
  type DeflatedPart,
  type SheetCellKind,
  type SheetColumnSpec,
} from './sheet-writer';
import { packageParts, SHARED_STRINGS, SHEET_END, sheetStart, worksheetPart, xmlRow } from './sheet-xml';
import { statTable, type StatVariable } from './stat-variables';

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

/** How a variable's cells are written in its sheet: categories and reasons are text, as in the CSV. */
const cellKind = (v: StatVariable, neutralised: boolean): SheetCellKind =>
  v.kind === 'integer' || v.kind === 'number'
    ? { kind: 'number' }
    : v.kind === 'boolean' || v.kind === 'utc' || v.kind === 'local'
      ? { kind: v.kind }
      : { kind: 'text', neutralised };

const widthOf = (v: StatVariable): number =>
  v.kind === 'utc' || v.kind === 'local'
    ? 20
    : v.kind === 'text'
      ? Math.min(40, Math.max(12, v.name.length + 2))
      : Math.max(10, v.name.length + 2);

/** The sheet's columns of a table: what its cells are, described for the sheets' thread. */
const sheetColumns = (def: FileDef): SheetColumnSpec[] =>
  statTable(def, 0).variables.map((v, i) => ({
    ...cellKind(v, def.columns[i]?.neutralised ?? false),
    name: v.name,
    width: widthOf(v),
  }));

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
      for (;;) {
        const { bytesRead } = await source.read(this.copyBuffer, 0, COPY_BYTES, null);
        if (bytesRead === 0) break;
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
 * The workbook being written beside the CSVs: `feed()` gives each CSV's text sink where its bytes also
 * go, the pass waits on `blocked`/`ready()` like on the CSVs, and `finish()` writes study.xlsx once the
 * settings are known.
 */
export class Workbook {
  private readonly sheets = new Sheets();
  /** The table of each sheet opened, in the order opened. */
  private readonly opened: string[] = [];
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

  /** Where the bytes of the CSV `file` go too, to become its sheet. */
  feed(file: string): (chunk: Uint8Array) => void {
    const def = this.tables.find((t) => t.name === file);
    if (!def) throw new Error(`No table ${file} in this export.`);
    this.opened.push(file);
    return this.sheets.open({
      columns: sheetColumns(def),
      title: file.replace(/\.csv$/, ''),
      partPrefix: join(this.dir, `.${this.name}.sheet-${this.opened.length}`),
      maxRows: this.maxRows,
    });
  }

  get blocked(): boolean {
    return this.sheets.blocked;
  }

  ready(): Promise<void> {
    return this.sheets.ready();
  }

  /** Every table's sheet parts, in the tables' order (call once every CSV is closed). */
  private async sheetParts(): Promise<DeflatedPart[]> {
    const byOpening = await this.sheets.close();
    return this.tables.flatMap((t) => {
      const i = this.opened.indexOf(t.name);
      return i < 0 ? [] : byOpening[i]!;
    });
  }

  /** Ends every sheet and writes the workbook: the package's parts, the tables' sheets, the codebook and settings. */
  async finish(d: WorkbookDescription): Promise<WrittenFile> {
    let parts: DeflatedPart[];
    let sharedStrings: string;
    try {
      parts = await this.sheetParts();
      sharedStrings = await this.sheets.sharedStrings();
    } finally {
      await this.sheets.end();
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
      await zip.add(SHARED_STRINGS, sharedStrings);
      return { name: this.name, role: 'workbook', rows: null, ...(await zip.close()) };
    } catch (e) {
      await zip.abandon();
      throw e;
    }
  }

  /** Stops every sheet's writing (the export is being abandoned; its folder is removed). */
  abandon(): Promise<void> {
    return this.sheets.abandon();
  }
}
