/** The built-in file browser (every mode), the native dialogs (Electron) and the manifest template. */
import type { filesContract } from '../../../shared/contract/files.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import { manifestTemplate } from '../../import/manifest';
import type { HandlersOf } from '../router';
import { listFolder } from '../../services/files.service';
import { fromProblem, type HostDeps } from './deps';

export const filesHandlers = (d: HostDeps): HandlersOf<typeof filesContract> => ({
  async 'files.list'({ path }) {
    const listing = await listFolder(path);
    return listing.ok ? ok(listing.value) : fromProblem(listing.error, 'NOT_FOUND');
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
