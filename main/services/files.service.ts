/**
 * The built-in file browser's folder listing (every mode): a folder's visible entries, folders first,
 * each file marked when it is audio the importer reads or a CSV that may be a manifest.
 */
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import type { Output } from '../../shared/contract';
import { err, ok, type Result } from '../../shared/result';
import { isAudioFileName } from '../import/import-plan';
import { problem, type ServiceProblem } from './service-context';

/** A folder listing stops here; the researcher narrows it by opening a subfolder. */
const MAX_ENTRIES = 5_000;

/** The folder at `path` (the home folder when none is given); a refusal when it cannot be opened. */
export const listFolder = async (
  path: string | undefined,
): Promise<Result<Output<'files.list'>, ServiceProblem>> => {
  const home = homedir();
  const dir = resolve(path ?? home);
  let names;
  try {
    names = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return err(
      problem(
        code === 'EACCES' || code === 'EPERM'
          ? `You may not open ${dir}.`
          : `${dir} is not a folder that can be opened.`,
        'Choose another folder.',
      ),
    );
  }
  const visible = names.filter((n) => !n.name.startsWith('.') && (n.isDirectory() || n.isFile()));
  const entries = await Promise.all(
    visible.slice(0, MAX_ENTRIES).map(async (n) => {
      const full = join(dir, n.name);
      const ext = extname(n.name).toLowerCase();
      const size = n.isFile()
        ? await stat(full).then(
            (s) => s.size,
            () => null,
          )
        : null;
      return {
        name: n.name,
        path: full,
        kind: n.isDirectory() ? ('dir' as const) : ('file' as const),
        sizeBytes: size,
        audio: n.isFile() && isAudioFileName(n.name),
        csv: n.isFile() && ext === '.csv',
      };
    }),
  );
  entries.sort((a, b) =>
    a.kind === b.kind
      ? a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' })
      : a.kind === 'dir'
        ? -1
        : 1,
  );
  const parent = dirname(dir) === dir ? null : dirname(dir);
  return ok({ path: dir, parent, home, entries, truncated: visible.length > MAX_ENTRIES });
};
