/**
 * What SPSS needs to know before it reads a CSV and cannot find out itself: how wide each text column
 * is (GET DATA declares a width in bytes, and cuts longer text), and whether any text holds a line
 * break (GET DATA reads one line per case, so such a row is read wrongly). Noted while the CSVs are
 * written, only when load.sps is asked for.
 */
import type { Cell } from './cells';

export class TextWidths {
  /** Longest UTF-8 text of each column, in bytes (0: no text). */
  readonly bytes: number[];
  /** Cells whose text holds a line break (CR or LF). */
  cellsWithLineBreaks = 0;

  constructor(columns: number) {
    this.bytes = new Array<number>(columns).fill(0);
  }

  note(column: number, cell: Cell): void {
    if (typeof cell !== 'string') return;
    const max = this.bytes[column]!;
    // A UTF-16 unit is at most 3 UTF-8 bytes: only text that could be longer is measured.
    if (cell.length * 3 > max) {
      const n = Buffer.byteLength(cell, 'utf8');
      if (n > max) this.bytes[column] = n;
    }
    if (cell.includes('\n') || cell.includes('\r')) this.cellsWithLineBreaks++;
  }
}
