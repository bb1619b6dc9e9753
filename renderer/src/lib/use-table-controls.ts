/**
 * What every searchable, sortable table screen keeps: the search as typed and as asked (debounced),
 * the sort (a header click toggles the order, a new column starts ascending) and the total the table
 * reported.
 */
import { useCallback, useState } from 'react';
import { useDebounced } from './use-debounced';

export interface Sort<S extends string> {
  readonly by: S;
  readonly dir: 'asc' | 'desc';
}

export const SEARCH_DEBOUNCE_MS = 250;

export const useTableControls = <S extends string>(initial: Sort<S>) => {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<Sort<S>>(initial);
  const [total, setTotal] = useState<number | null>(null);
  const onSort = useCallback(
    (by: string) => setSort((s) => ({ by: by as S, dir: s.by === by && s.dir === 'asc' ? 'desc' : 'asc' })),
    [],
  );
  const onTotal = useCallback((n: number) => setTotal(n), []);
  return { search, setSearch, query, sort, setSort, onSort, total, onTotal };
};
