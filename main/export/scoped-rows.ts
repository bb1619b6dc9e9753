/**
 * Encoding for the long form, where each recording gives 37 rows that differ only in a few cells.
 * Each column says what its value depends on (its scope): the recording, the analysis type (pair), the
 * measure, or the row itself. Consecutive columns of one scope form a segment, encoded once per
 * recording, pair or measure and reused; only the row's own cells are encoded per row. The line is the
 * segments joined by the delimiter, byte-identical to encoding the whole row at once (checked by
 * test/unit/export/cells.test.ts).
 */
import { createRowEncoder, FIELD_DELIMITER, toCell, type Cell } from './cells';
import type { ExportColumn } from './schema';

export type Scope = 'recording' | 'pair' | 'measure' | 'row';

interface Segment<C> {
  readonly scope: Scope;
  readonly columns: readonly ExportColumn<C>[];
}

const segmentsOf = <C>(columns: readonly (ExportColumn<C> & { readonly scope: Scope })[]): Segment<C>[] => {
  const out: { scope: Scope; columns: ExportColumn<C>[] }[] = [];
  for (const c of columns) {
    const last = out.at(-1);
    if (last && last.scope === c.scope) last.columns.push(c);
    else out.push({ scope: c.scope, columns: [c] });
  }
  return out;
};

export interface ScopedEncoder<C> {
  /** Call when a new recording starts (after filling the context). */
  recording(ctx: C): void;
  /** Call when a new analysis type of the recording starts. */
  pair(ctx: C): void;
  /** The line of one row (without line end); `measureKey` identifies the measure segment's cache entry. */
  row(ctx: C, measureKey: string): string;
}

export const createScopedEncoder = <C>(columns: readonly (ExportColumn<C> & { readonly scope: Scope })[]): ScopedEncoder<C> => {
  const encoder = createRowEncoder();
  const segments = segmentsOf(columns);
  const encoded: string[] = new Array<string>(segments.length).fill('');
  const byMeasure = segments.map(() => new Map<string, string>());
  const cells: Cell[] = [];
  const encode = (seg: Segment<C>, ctx: C): string => {
    cells.length = seg.columns.length;
    for (let i = 0; i < seg.columns.length; i++) cells[i] = toCell(seg.columns[i]!, seg.columns[i]!.get(ctx));
    return encoder.row(cells);
  };
  const refresh = (scope: Scope, ctx: C) => {
    for (let i = 0; i < segments.length; i++) if (segments[i]!.scope === scope) encoded[i] = encode(segments[i]!, ctx);
  };
  return {
    recording: (ctx) => refresh('recording', ctx),
    pair: (ctx) => refresh('pair', ctx),
    row(ctx, measureKey) {
      let line = '';
      for (let i = 0; i < segments.length; i++) {
        const seg = segments[i]!;
        let part: string;
        if (seg.scope === 'row') part = encode(seg, ctx);
        else if (seg.scope === 'measure') {
          const cache = byMeasure[i]!;
          let p = cache.get(measureKey);
          if (p === undefined) cache.set(measureKey, (p = encode(seg, ctx)));
          part = p;
        } else part = encoded[i]!;
        line = i === 0 ? part : line + FIELD_DELIMITER + part;
      }
      return line;
    },
  };
};
