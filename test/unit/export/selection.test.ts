/**
 * The export reads each recording as its view (main/db/repos/export-selection.repo.ts): every selected
 * column is named after the view's member it fills, or every file would carry values under the wrong
 * heading.
 */
import { describe, expect, it } from 'vitest';
import { recordingColumns, recordingSelectList } from '../../../main/db/repos/export-selection.repo';
import { SQLITE } from '../../../main/db/store/dialect';

const RECORDING_COLUMNS = recordingColumns(SQLITE);

describe('a recording read as its view', () => {
  it('selects each column under the name the column list gives it, in the same order', () => {
    // An expression may hold ", " itself (a JSON path's arguments): each column ends at its quoted name.
    const selected = [...recordingSelectList(SQLITE).matchAll(/(.+?) AS "(\w+)"(?:, |$)/g)].map((m) => [
      m[2],
      m[1],
    ]);
    expect(selected).toEqual(RECORDING_COLUMNS.map(([name, expr]) => [name, expr]));
  });

  it('selects every column once, each under a name of its own', () => {
    expect(new Set(RECORDING_COLUMNS.map(([, expr]) => expr)).size).toBe(RECORDING_COLUMNS.length);
    expect(new Set(RECORDING_COLUMNS.map(([name]) => name)).size).toBe(RECORDING_COLUMNS.length);
  });
});
