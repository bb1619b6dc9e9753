/**
 * Files: browse for them (the built-in browser works in every mode; native dialogs only in Electron)
 * and the manifest template. What the chosen files would become is imports.contract.ts.
 */
import { z } from 'zod';
import { pathText, strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';

export const DirEntrySchema = z.object({
  name: z.string(),
  path: z.string(),
  kind: z.enum(['dir', 'file']),
  sizeBytes: z.number().nullable(),
  /** By extension: audio the importer reads, or a CSV that may be a manifest. */
  audio: z.boolean(),
  csv: z.boolean(),
});

export const filesContract = {
  /** A folder's entries for the built-in file browser (the home folder when no path is given). */
  'files.list': procedure(
    strict({ path: pathText().optional() }),
    z.object({
      path: z.string(),
      parent: z.string().nullable(),
      home: z.string(),
      entries: z.array(DirEntrySchema),
      truncated: z.boolean(),
    }),
  ),
  /** The operating system's dialog (Electron only; browser mode answers UNSUPPORTED). Empty when cancelled. */
  'files.pick': action(
    strict({ purpose: z.enum(['audio', 'folder', 'manifest', 'export-folder']) }),
    z.object({ paths: z.array(z.string()) }),
    [],
  ),
  'files.manifestTemplate': procedure(NoInput, z.object({ csv: z.string() })),
} as const;
