/**
 * The records of a CSV file the export wrote, read back as its bytes come: RFC 4180 as csv-stringify
 * writes it with the export's options (cells.ts): fields separated by commas, records by CRLF, a field
 * quoted when it holds a comma, a quote, CR, LF or white space at either end, its quotes doubled. A
 * record without a quote (nearly all) is split as it is; a quoted one is read field by field. The bytes
 * may end anywhere, even inside a character or a quoted line end: what is not complete waits for the
 * next bytes.
 *
 * Written here rather than taken from csv-parse (already a dependency, for reading manifests): the
 * workbook reads back every byte of the export's CSVs, and csv-parse read 13 MB/s on the export's rows,
 * a tenth of what this reads.
 */
import { StringDecoder } from 'node:string_decoder';

const QUOTE = '"';
const FIELD = ',';
const RECORD = '\r\n';

/** A quoted field from `at` (its opening quote): its text and where it ends, or null when its bytes are not all here. */
const quotedField = (text: string, at: number): { value: string; end: number } | null => {
  let value = '';
  let from = at + 1;
  for (;;) {
    const q = text.indexOf(QUOTE, from);
    if (q < 0 || q + 1 >= text.length) return null;
    value += text.slice(from, q);
    if (text[q + 1] !== QUOTE) return { value, end: q + 1 };
    value += QUOTE;
    from = q + 2;
  }
};

/** One record from `at`, field by field (it has a quote); null when it is not complete yet. */
const quotedRecord = (text: string, at: number): { fields: string[]; next: number } | null => {
  const fields: string[] = [];
  let i = at;
  for (;;) {
    let end: number;
    if (text[i] === QUOTE) {
      const f = quotedField(text, i);
      if (f === null) return null;
      fields.push(f.value);
      end = f.end;
    } else {
      const comma = text.indexOf(FIELD, i);
      const line = text.indexOf(RECORD, i);
      if (line < 0) return null;
      end = comma >= 0 && comma < line ? comma : line;
      fields.push(text.slice(i, end));
    }
    if (text[end] === FIELD) i = end + 1;
    else if (text.startsWith(RECORD, end)) return { fields, next: end + RECORD.length };
    else if (end + 1 >= text.length) return null;
    else throw new Error(`The CSV has ${JSON.stringify(text[end])} after a quoted field.`);
  }
};

export class CsvRecords {
  private readonly decoder = new StringDecoder('utf8');
  private rest = '';
  private started = false;

  /** The records completed by these bytes, in order. */
  push(bytes: Uint8Array): string[][] {
    let text = this.rest + this.decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const records: string[][] = [];
    let at = 0;
    let quote = text.indexOf(QUOTE);
    for (;;) {
      const line = text.indexOf(RECORD, at);
      if (line < 0) break;
      if (quote < 0 || quote > line) {
        records.push(text.slice(at, line).split(FIELD));
        at = line + RECORD.length;
        continue;
      }
      const r = quotedRecord(text, at);
      if (r === null) break;
      records.push(r.fields);
      at = r.next;
      quote = text.indexOf(QUOTE, at);
    }
    this.rest = text.slice(at);
    return records;
  }

  /** Throws when the bytes ended inside a record (every record the export writes ends with CRLF). */
  end(): void {
    if (this.rest + this.decoder.end() !== '') throw new Error('The CSV ends inside a record.');
  }
}
