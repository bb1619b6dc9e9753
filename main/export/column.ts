/**
 * What an exported column is to the writers: its description (shared/export.ts ColumnDef) with the
 * function that reads its value, and, for the long form, what that value depends on. A leaf module, so
 * the column schema (schema/) and the long form's encoder (scoped-rows.ts) both import it and not
 * each other.
 */
import type { ColumnDef } from '../../shared/export';

export type RawValue = string | number | boolean | null | undefined;

export interface ExportColumn<C> extends ColumnDef {
  readonly get: (c: C) => RawValue;
  /**
   * The study database's `table.column` the value is read from, when a team study keeps that column
   * from some roles (main/db/team/access.ts): a member who may not read it exports without this column
   * (main/export/withheld.ts).
   */
  readonly readsFrom?: WithholdableSource;
}

/** The database columns an export reads that a team study keeps from some roles. */
export type WithholdableSource = 'recordings.source_path';

/** What a long-form column's value depends on: the recording, the analysis type (pair), the measure, or the row itself. */
export type Scope = 'recording' | 'pair' | 'measure' | 'row';

/** What a column may add to its name, type, title, description and getter. */
export type ColumnExtra = Partial<Pick<ColumnDef, 'unit' | 'enum' | 'range' | 'timeFormat' | 'measure'>> & {
  required?: boolean;
  neutralised?: boolean;
  readsFrom?: WithholdableSource;
};

/** One column of an export file: optional by default, never formula-neutralised unless it says so. */
export const col = <C>(
  name: string,
  type: ColumnDef['type'],
  title: string,
  description: string,
  get: (c: C) => RawValue,
  extra: ColumnExtra = {},
): ExportColumn<C> => {
  const { required = false, neutralised = false, ...rest } = extra;
  return { name, type, title, description, required, neutralised, ...rest, get };
};

/** A file's name without its folder: exports name files, never where they are kept (null: not read). */
export const fileNameOf = (path: string | null): string | null =>
  path === null ? null : (path.split(/[\\/]/).filter(Boolean).pop() ?? path);
