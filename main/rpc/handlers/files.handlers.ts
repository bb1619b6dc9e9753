/** The built-in file browser (every mode), the native dialogs (Electron) and the manifest template. */
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import type { filesContract } from '../../../shared/contract/files.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import { AUDIO_EXTENSIONS } from '../../import/import-plan';
import { manifestTemplate } from '../../import/manifest';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

/** A folder listing stops here; the researcher narrows it by opening a subfolder. */
const MAX_ENTRIES = 5_000;

export const filesHandlers = (d: HostDeps): HandlersOf<typeof filesContract> => ({
  async 'files.list'({ path }) {
    const home = homedir();
    const dir = resolve(path ?? home);
    let names;
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return err(
        appError(
          'NOT_FOUND',
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
          audio: n.isFile() && AUDIO_EXTENSIONS.has(ext),
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
  },
  async 'files.pick'({ purpose }) {
    if (!d.dialogs)
      return err(
        appError(
          'UNSUPPORTED',
          'The system file dialog exists only in the desktop app.',
          'Use the built-in file browser.',
        ),
      );
    return ok({ paths: await d.dialogs.pick(purpose) });
  },
  'files.manifestTemplate': () => ok({ csv: manifestTemplate() }),
});
