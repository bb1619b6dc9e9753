/**
 * The export reads recordings as arrays and names their cells itself (main/db/repos/export-selection.repo.ts): the names must
 * follow the selected columns one for one, or every file would carry values under the wrong heading.
 */
import { describe, expect, it } from 'vitest';
import { RECORDING_COLUMNS, recordingView } from '../../../main/db/repos/export-selection.repo';

describe('a recording read as an array', () => {
  it('gets each selected column under the name the column list gives it, in the same order', () => {
    const row = RECORDING_COLUMNS.map((_, i) => `cell ${i}`);
    const view = recordingView([...row, 'wellbeing:completed']);
    expect(Object.keys(view)).toEqual(RECORDING_COLUMNS.map(([name]) => name));
    RECORDING_COLUMNS.forEach(([name], i) => expect(view[name], name).toBe(`cell ${i}`));
  });

  it('selects every column once', () => {
    expect(new Set(RECORDING_COLUMNS.map(([, expr]) => expr)).size).toBe(RECORDING_COLUMNS.length);
  });
});
