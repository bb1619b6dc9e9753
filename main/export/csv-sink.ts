/**
 * One CSV file being written: lines are gathered into chunks of about 64 KB, each chunk is hashed
 * (SHA-256) and counted as it goes to the stream, and the writer waits for the stream to drain when it
 * asks to (backpressure), so memory stays bounded whatever the export's size. A write error (a full
 * disk) is kept and re-thrown at the writer's next step.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { Gzip } from 'node:zlib';
import type { WrittenFile } from '../../shared/export';
import { createRowEncoder, RECORD_DELIMITER, toCell, type Cell } from './cells';
import type { ScopedEncoder } from './scoped-rows';
import type { ExportColumn } from './column';
import type { TextWidths } from './text-widths';

/** Bytes a file may have in flight before the writer waits: enough for the disk to write while the next rows are built. */
const IN_FLIGHT_BYTES = 1024 * 1024;
const UTF8_BOM = '\uFEFF';

/** Opens a file for writing; tests pass one that fails like a full disk. */
export type OpenWrite = (path: string) => Writable;
export const openWriteFile: OpenWrite = (path) =>
  createWriteStream(path, { flags: 'wx', highWaterMark: IN_FLIGHT_BYTES });

/** Each chunk of a file is a buffer of this size, filled with whole lines before it goes to the stream. */
const CHUNK_BYTES = 64 * 1024;
/** Emptied buffers kept for the next chunks; more are made only while the disk is behind. */
const SPARE_BUFFERS = 4;

/** What a sink computes over the bytes it writes, as hexadecimal text. */
export interface Digest {
  update(chunk: Buffer): void;
  hex(): string;
}

/** SHA-256, the export's checksum of every file (SHA256SUMS). */
export const sha256Digest = (): Digest => {
  const h = createHash('sha256');
  return { update: (chunk) => h.update(chunk), hex: () => h.digest('hex') };
};

export class TextSink {
  // Each line is encoded into the current chunk's buffer as soon as it is complete, and a full chunk
  // goes to the stream; emptied buffers take the next chunks. So a line's text dies young (V8 never
  // promotes it, as it did when a slow file's lines waited as one long string for their chunk to
  // fill), and a chunk's buffer holds no unused room.
  private buf: Buffer | null = null;
  private at = 0;
  /** The pieces of the line being handed over (`piece`), written at its end. */
  private line = '';
  private readonly spare: Buffer[] = [];
  /**
   * Whether the stream is done with a chunk when it calls back, so its buffer can take the next one: a
   * file stream is (the bytes are in the file), and so is zlib (it has read the chunk into its window);
   * any other stream may keep it.
   */
  private readonly reuse: boolean;
  private drained: Promise<void> | null = null;
  private failure: Error | null = null;
  bytes = 0;

  constructor(
    readonly name: string,
    private readonly stream: Writable,
    /** Null when the stream computes its own (gzip's CRC-32, on zlib's thread): the file's `sha256` is then empty. */
    private readonly hash: Digest | null = sha256Digest(),
    /** Bytes of a chunk (a stream that hands each chunk to another thread pays per chunk, not per byte). */
    private readonly chunkBytes = CHUNK_BYTES,
  ) {
    this.reuse = stream instanceof WriteStream || stream instanceof Gzip;
    stream.on('error', (e) => {
      this.failure ??= e;
    });
  }

  write(text: string): void {
    if (this.line.length > 0) {
      text = this.line + text;
      this.line = '';
    }
    // At most 3 bytes per UTF-16 unit: if the text may not fit, the chunk goes first.
    if (this.buf !== null && this.at + text.length * 3 > this.chunkBytes) this.flush();
    if (text.length * 3 > this.chunkBytes) return this.send(Buffer.from(text, 'utf8'), undefined);
    this.buf ??= this.spare.pop() ?? Buffer.allocUnsafe(this.chunkBytes);
    this.at += this.buf.write(text, this.at, 'utf8');
  }

  /**
   * A piece of a line, kept until the line ends (call `write` or `endLine` to finish it). The long
   * form hands over its cached segments one by one instead of first concatenating each row into a
   * string of its own.
   */
  piece(text: string): void {
    this.line += text;
  }

  /**
   * Ready-made bytes (a cached run of cells), copied into the chunk after the line's pending pieces,
   * instead of being joined to the line as text and encoded again. The caller may keep `b`.
   */
  putBytes(b: Buffer): void {
    if (this.line.length > 0) {
      const pending = this.line;
      this.line = '';
      this.write(pending);
    }
    if (this.buf !== null && this.at + b.length > this.chunkBytes) this.flush();
    if (b.length > this.chunkBytes) return this.send(Buffer.from(b), undefined);
    this.buf ??= this.spare.pop() ?? Buffer.allocUnsafe(this.chunkBytes);
    // A typed array's own copy: for runs of a few hundred bytes, a third cheaper than Buffer's `copy`.
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  endLine(): void {
    this.write(RECORD_DELIMITER);
  }

  /** Resolves at once unless the stream asked us to wait; throws the stream's error if it failed. */
  async ready(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.drained) await this.drained;
    if (this.failure) throw this.failure;
  }

  get blocked(): boolean {
    return this.drained !== null || this.failure !== null;
  }

  /** The current chunk to the stream; its buffer comes back to `spare` once the stream is done with it. */
  private flush(): void {
    const buf = this.buf;
    if (buf === null || this.at === 0) return;
    this.buf = null;
    const chunk = buf.subarray(0, this.at);
    this.at = 0;
    this.send(
      chunk,
      this.reuse
        ? () => {
            if (this.spare.length < SPARE_BUFFERS) this.spare.push(buf);
          }
        : undefined,
    );
  }

  private send(chunk: Buffer, release: (() => void) | undefined): void {
    this.hash?.update(chunk);
    this.bytes += chunk.length;
    if (this.failure) return;
    if (
      !this.stream.write(
        chunk,
        release &&
          ((e) => {
            if (!e) release();
          }),
      ) &&
      !this.drained
    ) {
      this.drained = new Promise<void>((resolve) => {
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('error', done);
          this.drained = null;
          resolve();
        };
        this.stream.on('drain', done);
        this.stream.on('error', done);
      });
    }
  }

  /** Flushes, ends the stream, waits until the file is closed and returns its facts. */
  async close(role: WrittenFile['role'], rows: number | null): Promise<WrittenFile> {
    if (this.line.length > 0) this.write('');
    this.flush();
    await this.ready();
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
    if (this.failure) throw this.failure;
    return { name: this.name, role, rows, bytes: this.bytes, sha256: this.hash?.hex() ?? '' };
  }

  /** Ends the stream without caring for its data (the export is being abandoned). */
  abandon(): Promise<void> {
    return new Promise((resolve) => {
      if (this.stream.destroyed || this.stream.writableFinished) return resolve();
      this.stream.once('close', () => resolve());
      this.stream.destroy();
    });
  }
}

/** Where a table's rows also go, from the same cells: the workbook's sheet of it, when one is written. */
export interface SheetRows<C> {
  row(cells: readonly Cell[]): void;
  /**
   * A new recording or analysis type of the long form (its shared cells encoded once); `from` is the
   * CSV's encoder, which has just read the same cells.
   */
  scope(scope: 'recording' | 'pair', ctx: C, from: ScopedEncoder<C>): void;
  scopedRow(ctx: C, measureKey: string, from: ScopedEncoder<C>): void;
}

/** A CSV table: the header from the column schema, then rows whose cells the same columns read. */
export class CsvSink<C> {
  private readonly encoder = createRowEncoder();
  private readonly cells: Cell[];
  rows = 0;

  constructor(
    readonly text: TextSink,
    private readonly columns: readonly ExportColumn<C>[],
    bom: boolean,
    /** Notes each text cell's width, when load.sps is written. */
    readonly widths: TextWidths | null = null,
    private readonly sheet: SheetRows<C> | null = null,
  ) {
    this.cells = new Array<Cell>(columns.length).fill(null);
    text.write((bom ? UTF8_BOM : '') + this.encoder.row(columns.map((c) => c.name)) + RECORD_DELIMITER);
  }

  /** A row encoded by the long form's scoped encoder, from these columns. */
  scopedRow(encoder: ScopedEncoder<C>, ctx: C, measureKey: string): void {
    encoder.rowInto(ctx, measureKey, this.text);
    this.text.endLine();
    this.sheet?.scopedRow(ctx, measureKey, encoder);
    this.rows++;
  }

  /** A new recording or analysis type of the long form, for the scoped encoder and the sheet. */
  scope(encoder: ScopedEncoder<C>, scope: 'recording' | 'pair', ctx: C): void {
    encoder[scope](ctx);
    this.sheet?.scope(scope, ctx, encoder);
  }

  row(ctx: C): void {
    const cols = this.columns;
    for (let i = 0; i < cols.length; i++) this.cells[i] = toCell(cols[i]!, cols[i]!.get(ctx));
    if (this.widths) for (let i = 0; i < cols.length; i++) this.widths.note(i, this.cells[i]!);
    this.text.write(this.encoder.row(this.cells) + RECORD_DELIMITER);
    this.sheet?.row(this.cells);
    this.rows++;
  }
}
