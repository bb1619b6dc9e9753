/**
 * A virtualised table over a paged procedure: only the rows in view are in the DOM, and only the pages
 * in view are asked for (TanStack Virtual + one TanStack Query per page, so engine events refresh just
 * what is on screen). The grid is the scrolling element itself, with a sticky header row, so one tab
 * stop reaches it (and axe's "scrollable region must have keyboard access" holds); arrows, Page Up/Down,
 * Home and End move the active row (aria-activedescendant) and Enter opens it. Sortable headers are
 * buttons that announce their order. Loading, empty and error states sit outside the grid.
 */
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import type { Input, Output } from '../../../shared/contract';
import { unwrap, useRpc, type CallFailed } from '../lib/api';
import { ErrorNotice, Loading } from './Feedback';
import {
  HEAD_HEIGHT,
  ROW_HEIGHT,
  keyAction,
  pagesOf,
  placeOf,
  rowsPerScreen,
  sortOrderOf,
  withinTable,
} from './paged-table';

export type PagedMethod = 'participants.page' | 'recordings.page' | 'imports.planFiles';
export type RowOf<M extends PagedMethod> = Output<M>['rows'][number];

export interface Column<R> {
  readonly key: string;
  readonly header: string;
  /** CSS grid track, e.g. '10rem' or 'minmax(8rem, 1fr)'. */
  readonly width: string;
  /** The procedure's sort key for this column, when it can be sorted. */
  readonly sort?: string;
  readonly align?: 'right';
  readonly render: (row: R) => ReactNode;
}

export interface PagedTableProps<M extends PagedMethod> {
  readonly method: M;
  /** The procedure's input without the window (offset, limit). */
  readonly input: Omit<Input<M>, 'offset' | 'limit'>;
  readonly columns: readonly Column<RowOf<M>>[];
  readonly label: string;
  readonly rowKey: (row: RowOf<M>) => string | number;
  readonly onOpen?: (row: RowOf<M>) => void;
  readonly sort?: { by: string; dir: 'asc' | 'desc' };
  readonly onSort?: (by: string) => void;
  /** Shown instead of the grid when there are no rows (null: the page shows its own). */
  readonly empty: ReactNode;
  readonly pageSize?: number;
  /** Height of the scrolling area (CSS), default fills most of the window. */
  readonly height?: string;
  /** The columns' smallest total width: below it the table scrolls sideways as a whole. */
  readonly minWidth?: string;
  readonly onTotal?: (total: number) => void;
}

/** The rows in view, asked for a page at a time: the virtualiser, the pages' queries and the row count. */
const usePagedRows = <M extends PagedMethod>(
  p: PagedTableProps<M>,
  scrollRef: RefObject<HTMLDivElement | null>,
) => {
  const rpc = useRpc();
  const pageSize = p.pageSize ?? 100;
  const [total, setTotal] = useState<number | null>(null);
  const [range, setRange] = useState<[number, number]>([0, 0]);

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // The rows start below the sticky header, inside the same scrolling element.
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT,
    onChange: (v) => {
      const items = v.getVirtualItems();
      const first = items[0]?.index ?? 0;
      const last = items.at(-1)?.index ?? 0;
      setRange((r) => (r[0] === first && r[1] === last ? r : [first, last]));
    },
  });

  const pages = useMemo(() => pagesOf(range, pageSize), [range, pageSize]);

  const results = useQueries({
    queries: pages.map((page) => {
      const input = { ...p.input, offset: page * pageSize, limit: pageSize } as Input<M>;
      return {
        queryKey: [p.method, input],
        queryFn: async () => unwrap(await rpc.call(p.method, input)) as { rows: RowOf<M>[]; total: number },
        placeholderData: keepPreviousData,
      };
    }),
  });

  const firstTotal = results.find((r) => r.data)?.data?.total;
  const onTotal = p.onTotal;
  useEffect(() => {
    if (firstTotal !== undefined) {
      setTotal(firstTotal);
      onTotal?.(firstTotal);
    }
  }, [firstTotal, onTotal]);

  const rowAt = (index: number): RowOf<M> | undefined => {
    const { loaded, at } = placeOf(index, pages, pageSize);
    return results[loaded]?.data?.rows[at];
  };
  const error = results.find((r) => r.error)?.error as CallFailed | undefined;
  const retry = () => {
    for (const r of results) void r.refetch();
  };
  return { virtualizer, total, rowAt, error, retry };
};

/** The sticky header row: each column's name, a button that sorts by it where it can be sorted. */
const HeaderRow = <R,>({
  columns,
  template,
  sort,
  onSort,
}: {
  columns: readonly Column<R>[];
  template: string;
  sort: { by: string; dir: 'asc' | 'desc' } | undefined;
  onSort: ((by: string) => void) | undefined;
}) => (
  <div role="rowgroup" className="grid-head-group">
    <div
      role="row"
      aria-rowindex={1}
      className="grid-head"
      style={{ gridTemplateColumns: template, height: HEAD_HEIGHT }}
    >
      {columns.map((c) => {
        const sorted = sortOrderOf(c, sort);
        return (
          <div
            role="columnheader"
            key={c.key}
            aria-sort={c.sort ? (sorted ?? 'none') : undefined}
            className={c.align === 'right' ? 'right' : undefined}
          >
            {c.sort && onSort ? (
              <button type="button" className="sort" onClick={() => onSort(c.sort!)}>
                {c.header}
                <span aria-hidden="true">
                  {sorted === 'ascending' ? ' ▲' : sorted === 'descending' ? ' ▼' : ''}
                </span>
              </button>
            ) : (
              c.header
            )}
          </div>
        );
      })}
    </div>
  </div>
);

/** One row of the grid (a skeleton until its page arrives); a click makes it active and opens it. */
const GridRow = <R,>({
  id,
  index,
  start,
  row,
  active,
  columns,
  template,
  onActivate,
  onOpen,
}: {
  id: string;
  index: number;
  start: number;
  row: R | undefined;
  active: boolean;
  columns: readonly Column<R>[];
  template: string;
  onActivate: (index: number) => void;
  onOpen: ((row: R) => void) | undefined;
}) => (
  <div
    role="row"
    id={id}
    aria-rowindex={index + 2}
    aria-selected={active}
    className={`grid-row${active ? ' active' : ''}${onOpen ? ' clickable' : ''}`}
    style={{
      gridTemplateColumns: template,
      transform: `translateY(${start - HEAD_HEIGHT}px)`,
      height: ROW_HEIGHT,
    }}
    onClick={() => {
      onActivate(index);
      if (row && onOpen) onOpen(row);
    }}
  >
    {columns.map((c) => (
      <div role="gridcell" key={c.key} className={c.align === 'right' ? 'right' : undefined}>
        {row ? c.render(row) : <span className="skeleton" />}
      </div>
    ))}
  </div>
);

export const PagedTable = <M extends PagedMethod>(p: PagedTableProps<M>) => {
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridId = useId();
  const [active, setActive] = useState(0);
  const inputKey = JSON.stringify(p.input);
  const { virtualizer, total, rowAt, error, retry } = usePagedRows(p, scrollRef);

  // A new filter or sort starts at the top.
  useEffect(() => {
    setActive(0);
    scrollRef.current?.scrollTo({ top: 0 });
  }, [inputKey]);

  const onKey = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).closest('button') && e.key === 'Enter') return; // a header's sort button
    const pageRows = rowsPerScreen(scrollRef.current?.clientHeight ?? 400);
    const action = keyAction(e.key, active, total, pageRows);
    if (!action) return;
    e.preventDefault();
    if (action === 'open') {
      const r = rowAt(active);
      if (r && p.onOpen) p.onOpen(r);
      return;
    }
    const i = withinTable(action.move, total);
    if (i === null) return;
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
  };

  const template = p.columns.map((c) => c.width).join(' ');
  const loadingFirst = total === null && !error;
  const style = {
    height: p.height ?? 'calc(100vh - 22rem)',
    '--grid-min': p.minWidth ?? '0',
  } as CSSProperties;

  return (
    <div className="ptable">
      <ErrorNotice error={error?.appError} onRetry={retry} />
      {loadingFirst && <Loading />}
      {total === 0 && p.empty !== null && <div className="grid-empty">{p.empty}</div>}
      <div
        ref={scrollRef}
        role="grid"
        aria-label={p.label}
        aria-rowcount={(total ?? 0) + 1}
        aria-colcount={p.columns.length}
        aria-activedescendant={total ? `${gridId}-r${active}` : undefined}
        tabIndex={0}
        onKeyDown={onKey}
        className="grid"
        hidden={total === null || total === 0}
        style={style}
      >
        <HeaderRow columns={p.columns} template={template} sort={p.sort} onSort={p.onSort} />
        <div role="rowgroup" className="grid-rows" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rowAt(v.index);
            return (
              <GridRow
                key={row ? p.rowKey(row) : `loading-${v.index}`}
                id={`${gridId}-r${v.index}`}
                index={v.index}
                start={v.start}
                row={row}
                active={v.index === active}
                columns={p.columns}
                template={template}
                onActivate={setActive}
                onOpen={p.onOpen}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
};
