/** Why an export did not happen, in the researcher's words, with what to do about it. */
import type { ExportProblem } from '../../shared/export';

export const problem = (code: ExportProblem['code'], message: string, action: string): ExportProblem => ({
  code,
  message,
  action,
});

export class ExportCancelled extends Error {
  constructor() {
    super('export cancelled');
    this.name = 'ExportCancelled';
  }
}

const codeOf = (e: unknown): string | undefined =>
  e !== null && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;

/** A file-system failure while writing into `folder`, as a problem the researcher can act on. */
export const fileProblem = (e: unknown, folder: string): ExportProblem => {
  switch (codeOf(e)) {
    case 'ENOSPC':
    case 'EDQUOT':
      return problem(
        'disk_full',
        `The disk holding ${folder} is full; the export was not written (nothing was left behind).`,
        'Free some space or choose a folder on another disk, then export again.',
      );
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return problem(
        'folder_unwritable',
        `Voicescope may not write into ${folder}.`,
        'Choose a folder you can write to (for example in your Documents), or ask for write access.',
      );
    case 'ENOENT':
    case 'ENOTDIR':
      return problem(
        'folder_unwritable',
        `The folder ${folder} does not exist.`,
        'Choose an existing folder.',
      );
    case 'EEXIST':
    case 'ENOTEMPTY':
      return problem(
        'folder_exists',
        `An export with this name already exists in ${folder}; it was not overwritten.`,
        'Choose another name, or move the earlier export away.',
      );
    default:
      return problem(
        'failed',
        `The export could not be written to ${folder}: ${e instanceof Error ? e.message : String(e)}.`,
        'Try again; if it happens again, report this message.',
      );
  }
};
