/**
 * What an export file is to the writers (its description with its columns), and how each file is declared.
 */
import { type FileDef, type FileRole } from '../../../shared/export';
import { type ExportColumn } from '../column';

export const RECORDINGS_FILE = 'recordings.csv';

export interface ExportFile<C> extends Omit<FileDef, 'columns'> {
  readonly columns: readonly ExportColumn<C>[];
}

export const file = <C, Col extends ExportColumn<C>>(
  name: string,
  role: FileRole,
  title: string,
  rowIs: string,
  description: string,
  primaryKey: string[],
  columns: Col[],
  toRecordings = true,
): ExportFile<C> & { readonly columns: readonly Col[] } => ({
  name,
  role,
  title,
  rowIs,
  description,
  primaryKey,
  columns,
  foreignKeys:
    toRecordings && name !== RECORDINGS_FILE
      ? [{ fields: ['recording'], resource: 'recordings', referenceFields: ['recording'] }]
      : [],
});

/** Whether the study's local acoustic measures are exported (when any recording of it was measured locally). */
export interface LocalOption {
  readonly localMeasures?: boolean;
}
