/**
 * Encoding for the long form, where each recording gives 37 rows that differ only in a few cells.
 * Each column says what its value depends on (its scope): the recording, the analysis type (pair), the
 * measure, or the row itself. Consecutive columns of one scope form a segment, encoded once per
 * recording, pair or measure and reused; only the row's own cells are encoded per row. The line is the
 * segments joined by the delimiter, byte-identical to encoding the whole row at once (checked by
 * test/unit/export/cells.test.ts). The same plan writes the workbook's long sheet, with its own format
 * of a run of cells (SpreadsheetML cells instead of CSV fields).
 */
import { createRowEncoder, FIELD_DELIMITER, toCell, type Cell } from './cells';
import type { ExportColumn, Scope } from './column';
import type { TextWidths } from './text-widths';

interface Segment<C> {
  readonly scope: Scope;
  /** Index of the segment's first column in the row. */
  readonly first: number;
  readonly columns: readonly ExportColumn<C>[];
}

const segmentsOf = <C>(columns: readonly (ExportColumn<C> & { readonly scope: Scope })[]): Segment<C>[] => {
  const out: { scope: Scope; first: number; columns: ExportColumn<C>[] }[] = [];
  columns.forEach((c, i) => {
    const last = out.at(-1);
    if (last && last.scope === c.scope) last.columns.push(c);
    else out.push({ scope: c.scope, first: i, columns: [c] });
  });
  return out;
};

export interface ScopedEncoder<C> {
  /**
   * Call when a new recording starts (after filling the context). `from`, when given, is an encoder of
   * the same columns that has just encoded the same recording (the CSV's, for the workbook's sheet):
   * its cells are taken instead of being read again. The same holds for `pair` and `rowBytesInto`.
   */
  recording(ctx: C, from?: ScopedEncoder<C>): void;
  /** Call when a new analysis type of the recording starts. */
  pair(ctx: C, from?: ScopedEncoder<C>): void;
  /** The line of one row (without CSV's line end); `measureKey` identifies the measure segment's cache entry. */
  row(ctx: C, measureKey: string): string;
  /** The same line, handed over piece by piece (segments and delimiters), without building it. */
  rowInto(ctx: C, measureKey: string, out: { piece(text: string): void }): void;
  /**
   * The same line with its repeated pieces (the recording's, the type's and each measure's cells) as
   * bytes encoded once and copied, and only the row's own cells as text.
   */
  rowBytesInto(ctx: C, measureKey: string, out: PieceBytesOut, from?: ScopedEncoder<C>): void;
  /** The cells of segment `index` as this encoder last read them. */
  lastCells(index: number): readonly Cell[];
}

/** Where `rowBytesInto` hands a line: text pieces, and ready-made bytes it keeps and reuses. */
export interface PieceBytesOut {
  piece(text: string): void;
  putBytes(b: Buffer): void;
}

/** How a run of cells (from column `first` on) becomes text, what goes between two runs, and around a row. */
export interface RowFormat {
  encode(cells: readonly Cell[], first: number): string;
  readonly separator: string;
  /** Before and after each row's cells (a SpreadsheetML row element; nothing in CSV, whose line end the sink writes). */
  readonly start?: string;
  readonly end?: string;
}

/** CSV fields, separated by the field delimiter. */
export const csvFormat = (): RowFormat => {
  const encoder = createRowEncoder();
  return { encode: (cells) => encoder.row(cells), separator: FIELD_DELIMITER };
};

type Item =
  | { readonly kind: 'static'; text: string; bytes?: Buffer }
  | { readonly kind: 'measure' | 'row'; readonly index: number };

export const createScopedEncoder = <C>(
  columns: readonly (ExportColumn<C> & { readonly scope: Scope })[],
  /** Notes each text cell's width, when load.sps is written. */
  widths: TextWidths | null = null,
  format: RowFormat = csvFormat(),
): ScopedEncoder<C> => {
  const segments = segmentsOf(columns);
  const encoded: string[] = new Array<string>(segments.length).fill('');
  /** Per measure segment: measure key → the segment with its leading delimiter. */
  const byMeasure = segments.map(() => new Map<string, string>());
  /** The same pieces as UTF-8, for `rowBytesInto`. */
  const byMeasureBytes = segments.map(() => new Map<string, Buffer>());
  /** Each segment's cells, made once: the encoder fills them for every row. */
  const cellsOf = segments.map((seg) => new Array<Cell>(seg.columns.length).fill(null));
  const read = (seg: Segment<C>, ctx: C, index: number): readonly Cell[] => {
    const cells = cellsOf[index]!;
    for (let i = 0; i < seg.columns.length; i++) cells[i] = toCell(seg.columns[i]!, seg.columns[i]!.get(ctx));
    if (widths) for (let i = 0; i < cells.length; i++) widths.note(seg.first + i, cells[i]!);
    return cells;
  };
  const encode = (seg: Segment<C>, ctx: C, index: number, from?: ScopedEncoder<C>): string =>
    format.encode(from ? from.lastCells(index) : read(seg, ctx, index), seg.first);
  const lead = (i: number, text: string): string => (i === 0 ? text : format.separator + text);
  // What a row is made of, rebuilt for each analysis type: neighbouring recording and type segments
  // joined into one piece, so a row is handed over in a handful of pieces.
  let plan: Item[] = [];
  const addStatic = (text: string) => {
    const last = plan.at(-1);
    if (last?.kind === 'static') last.text += text;
    else plan.push({ kind: 'static', text });
  };
  const replan = () => {
    plan = [];
    if (format.start) addStatic(format.start);
    segments.forEach((seg, i) => {
      if (seg.scope === 'recording' || seg.scope === 'pair') addStatic(lead(i, encoded[i]!));
      else plan.push({ kind: seg.scope, index: i });
    });
    if (format.end) addStatic(format.end);
  };
  const refresh = (scope: Scope, ctx: C, from?: ScopedEncoder<C>) => {
    for (let i = 0; i < segments.length; i++)
      if (segments[i]!.scope === scope) encoded[i] = encode(segments[i]!, ctx, i, from);
    replan();
  };
  // A measure's segment is read only when it is not cached yet, so its cells are never taken `from`
  // another encoder, whose cache may have spared it the reading.
  const piece = (item: Item, ctx: C, measureKey: string, from?: ScopedEncoder<C>): string => {
    if (item.kind === 'static') return item.text;
    if (item.kind === 'row') return lead(item.index, encode(segments[item.index]!, ctx, item.index, from));
    const cache = byMeasure[item.index]!;
    let p = cache.get(measureKey);
    if (p === undefined)
      cache.set(measureKey, (p = lead(item.index, encode(segments[item.index]!, ctx, item.index))));
    return p;
  };
  const measureBytes = (index: number, ctx: C, measureKey: string): Buffer => {
    const cache = byMeasureBytes[index]!;
    let b = cache.get(measureKey);
    if (b === undefined)
      cache.set(measureKey, (b = Buffer.from(piece({ kind: 'measure', index }, ctx, measureKey))));
    return b;
  };
  return {
    recording: (ctx, from) => refresh('recording', ctx, from),
    pair: (ctx, from) => refresh('pair', ctx, from),
    lastCells: (index) => cellsOf[index]!,
    row(ctx, measureKey) {
      let line = '';
      for (const item of plan) line += piece(item, ctx, measureKey);
      return line;
    },
    rowInto(ctx, measureKey, out) {
      for (const item of plan) out.piece(piece(item, ctx, measureKey));
    },
    rowBytesInto(ctx, measureKey, out, from) {
      for (const item of plan)
        if (item.kind === 'static') out.putBytes((item.bytes ??= Buffer.from(item.text)));
        else if (item.kind === 'measure') out.putBytes(measureBytes(item.index, ctx, measureKey));
        else out.piece(piece(item, ctx, measureKey, from));
    },
  };
};
