/**
 * The paged table's arithmetic (renderer/src/components/paged-table.ts): which pages the rows in view
 * need, where a row is among the pages loaded, where each key moves the active row, and how a sortable
 * column announces its order.
 */
import { describe, expect, it } from 'vitest';
import {
  keyAction,
  pagesOf,
  placeOf,
  rowsPerScreen,
  sortOrderOf,
  withinTable,
} from '../../../renderer/src/components/paged-table';

describe('the pages asked for', () => {
  it('are those holding the rows in view, and no others', () => {
    expect(pagesOf([0, 30], 100)).toEqual([0]);
    expect(pagesOf([95, 130], 100)).toEqual([0, 1]);
    expect(pagesOf([250, 410], 100)).toEqual([2, 3, 4]);
  });
  it('find a row on its page, or say its page is not loaded', () => {
    expect(placeOf(130, [0, 1], 100)).toEqual({ loaded: 1, at: 30 });
    expect(placeOf(530, [0, 1], 100).loaded).toBe(-1);
  });
});

describe('the keys of the grid', () => {
  it('move the active row by one, by a screen, to the ends', () => {
    expect(keyAction('ArrowDown', 5, 50, 8)).toEqual({ move: 6 });
    expect(keyAction('ArrowUp', 5, 50, 8)).toEqual({ move: 4 });
    expect(keyAction('PageDown', 5, 50, 8)).toEqual({ move: 13 });
    expect(keyAction('PageUp', 5, 50, 8)).toEqual({ move: -3 });
    expect(keyAction('Home', 5, 50, 8)).toEqual({ move: 0 });
    expect(keyAction('End', 5, 50, 8)).toEqual({ move: 49 });
  });
  it('open the active row with Enter, and leave every other key to the browser', () => {
    expect(keyAction('Enter', 5, 50, 8)).toBe('open');
    expect(keyAction('a', 5, 50, 8)).toBeNull();
    expect(keyAction('toString', 5, 50, 8)).toBeNull();
  });
  it('keep the active row within the table, and do nothing in an empty one', () => {
    expect(withinTable(-3, 50)).toBe(0);
    expect(withinTable(70, 50)).toBe(49);
    expect(withinTable(3, 0)).toBeNull();
    expect(withinTable(3, null)).toBeNull();
  });
  it('move a screen by the rows that fit below the header, less one, at least one', () => {
    expect(rowsPerScreen(440)).toBe(9);
    expect(rowsPerScreen(60)).toBe(1);
  });
});

describe('a sortable column', () => {
  const column = { sort: 'code' };
  it('announces the order the table is sorted in by it', () => {
    expect(sortOrderOf(column, { by: 'code', dir: 'asc' })).toBe('ascending');
    expect(sortOrderOf(column, { by: 'code', dir: 'desc' })).toBe('descending');
  });
  it('announces nothing while the table is sorted by another column, or not at all', () => {
    expect(sortOrderOf(column, { by: 'last', dir: 'asc' })).toBeUndefined();
    expect(sortOrderOf(column, undefined)).toBeUndefined();
  });
});
