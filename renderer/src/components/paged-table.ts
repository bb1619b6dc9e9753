/**
 * The paged table's arithmetic: which pages hold the rows in view, where a row is among the pages
 * loaded, where a key moves the active row, and how a column announces its order.
 */

export const ROW_HEIGHT = 40;
export const HEAD_HEIGHT = 40;

/** The pages (of `pageSize` rows) that hold the rows from `first` to `last`. */
export const pagesOf = ([first, last]: readonly [number, number], pageSize: number): number[] => {
  const from = Math.floor(first / pageSize);
  const to = Math.floor(last / pageSize);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
};

/** Where row `index` is: which of the loaded pages (-1: not loaded) and its place on that page. */
export const placeOf = (
  index: number,
  pages: readonly number[],
  pageSize: number,
): { loaded: number; at: number } => {
  const page = Math.floor(index / pageSize);
  return { loaded: pages.indexOf(page), at: index - page * pageSize };
};

/** Rows a Page Up or Down moves: one fewer than fill the grid below its header, at least one. */
export const rowsPerScreen = (gridHeight: number): number =>
  Math.max(1, Math.floor((gridHeight - HEAD_HEIGHT) / ROW_HEIGHT) - 1);

/**
 * What a key does in the grid: moves the active row (to a row within the table), opens it, or nothing
 * (the key is left to the browser).
 */
export const keyAction = (
  key: string,
  active: number,
  total: number | null,
  pageRows: number,
): { move: number } | 'open' | null => {
  const to: Record<string, number> = {
    ArrowDown: active + 1,
    ArrowUp: active - 1,
    PageDown: active + pageRows,
    PageUp: active - pageRows,
    Home: 0,
    End: (total ?? 1) - 1,
  };
  if (key === 'Enter') return 'open';
  return Object.hasOwn(to, key) ? { move: to[key]! } : null;
};

/** A target row kept within the table; null when the table has no rows. */
export const withinTable = (to: number, total: number | null): number | null =>
  total === null || total === 0 ? null : Math.max(0, Math.min(total - 1, to));

/** How a column's header announces its order: ascending, descending, or not sorted by it. */
export const sortOrderOf = (
  column: { readonly sort?: string },
  sort: { by: string; dir: 'asc' | 'desc' } | undefined,
): 'ascending' | 'descending' | undefined =>
  sort && column.sort === sort.by ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
