/**
 * What the workbook asks of its sheets, as messages: open a table's sheet, take bytes of its CSV, close
 * it (its part files), give the shared strings. `SheetWork` answers them in the workbook's worker thread
 * (sheet-worker.ts) or, where no worker can start, in the export's own thread (sheets.ts).
 */
import { SharedStrings, SheetWriter, type DeflatedPart, type SheetSpec } from './sheet-writer';

export type ToSheets =
  | { readonly t: 'open'; readonly id: number; readonly spec: SheetSpec }
  | { readonly t: 'bytes'; readonly id: number; readonly bytes: Uint8Array }
  | { readonly t: 'close'; readonly id: number }
  | { readonly t: 'strings' }
  | { readonly t: 'abandon' };

export type FromSheets =
  /** Bytes of a CSV written into its sheet (the workbook lets more come). */
  | { readonly t: 'took'; readonly bytes: number }
  | { readonly t: 'closed'; readonly id: number; readonly parts: DeflatedPart[] }
  | { readonly t: 'strings'; readonly xml: string }
  | { readonly t: 'failed'; readonly message: string };

export class SheetWork {
  private readonly strings = new SharedStrings();
  private readonly sheets = new Map<number, SheetWriter>();
  private failed = false;

  private sheet(id: number): SheetWriter {
    const s = this.sheets.get(id);
    if (!s) throw new Error(`No sheet ${id} is open.`);
    return s;
  }

  private async step(m: ToSheets): Promise<FromSheets | null> {
    switch (m.t) {
      case 'open':
        this.sheets.set(m.id, new SheetWriter(m.spec, this.strings));
        return null;
      case 'bytes': {
        const s = this.sheet(m.id);
        s.push(m.bytes);
        if (s.blocked) await s.ready();
        return { t: 'took', bytes: m.bytes.length };
      }
      case 'close': {
        const parts = await this.sheet(m.id).close();
        this.sheets.delete(m.id);
        return { t: 'closed', id: m.id, parts };
      }
      case 'strings':
        return { t: 'strings', xml: this.strings.xml() };
      case 'abandon':
        await Promise.all([...this.sheets.values()].map((s) => s.abandon()));
        this.sheets.clear();
        return null;
    }
  }

  /** The answer to one message; after a failure, nothing more is done or said. */
  async handle(m: ToSheets): Promise<FromSheets | null> {
    if (this.failed) return null;
    try {
      return await this.step(m);
    } catch (e) {
      this.failed = true;
      return { t: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
  }
}
