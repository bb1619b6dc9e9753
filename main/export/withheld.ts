/**
 * What an export leaves out because the login may not read it: on a team study, the database keeps
 * file paths and notes from analysts (they can name a person) and the participant-to-account link from
 * everyone but the owner (main/db/team/access.ts). Each exported column read from such a database
 * column (its `readsFrom`) is left out of its file, and the codebook says which and why; the link
 * file, which is nothing but the account link, is refused. On SQLite, and for the owner, nothing is
 * withheld.
 */
import type { ExportProblem, ExportRequest } from '../../shared/export';
import { err, ok, type Result } from '../../shared/result';
import { unreadableColumns } from '../db/readable-columns';
import type { Queryable } from '../db/store/types';
import type { WithholdableSource } from './column';
import { problem } from './problems';
import type { ExportFiles } from './schema';

/** One exported column left out, with the database column it is read from and why. */
export interface WithheldColumn {
  readonly file: string;
  readonly column: string;
  /** `table.column` of the study database. */
  readonly source: WithholdableSource;
  readonly why: string;
}

const WHY: Record<WithholdableSource, string> = {
  'recordings.source_path':
    "the original audio file's name can name a person, so your role in this team study may not read the files' paths",
};

type AnyFile = {
  readonly name: string;
  readonly columns: readonly { readonly name: string; readonly readsFrom?: WithholdableSource }[];
};

const filesOf = (files: ExportFiles): AnyFile[] =>
  Object.values(files).filter((f): f is NonNullable<typeof f> => f !== null);

const unreadable = async (q: Queryable, source: WithholdableSource): Promise<boolean> => {
  const [table, column] = source.split('.') as [string, string];
  return (await unreadableColumns(q, table, [column])).length > 0;
};

/** The columns of `files` this login's export leaves out; none when it may read everything they are read from. */
export const withheldColumns = async (q: Queryable, files: ExportFiles): Promise<WithheldColumn[]> => {
  const kept = new Map<WithholdableSource, boolean>();
  const out: WithheldColumn[] = [];
  for (const f of filesOf(files))
    for (const c of f.columns) {
      if (c.readsFrom === undefined) continue;
      if (!kept.has(c.readsFrom)) kept.set(c.readsFrom, await unreadable(q, c.readsFrom));
      if (kept.get(c.readsFrom))
        out.push({ file: f.name, column: c.name, source: c.readsFrom, why: WHY[c.readsFrom] });
    }
  return out;
};

/** Refused when the link file is asked for but the login may not read the participants' service accounts. */
export const refusedLinkFile = async (
  q: Queryable,
  req: ExportRequest,
): Promise<Result<null, ExportProblem>> => {
  if (!req.includeLinkFile) return ok(null);
  if ((await unreadableColumns(q, 'participants', ['account_id'])).length === 0) return ok(null);
  return err(
    problem(
      'invalid_request',
      "The link file (participant_accounts.csv) holds the participants' service account ids, which only the study's owner may read.",
      "Export without the link file, or ask the study's owner for it.",
    ),
  );
};

/** Each file without the columns withheld from it. */
export const withoutWithheld = (files: ExportFiles, withheld: readonly WithheldColumn[]): ExportFiles => {
  if (withheld.length === 0) return files;
  const keep = <F extends AnyFile>(f: F): F => ({
    ...f,
    columns: f.columns.filter((c) => !withheld.some((w) => w.file === f.name && w.column === c.name)),
  });
  return {
    recordings: keep(files.recordings),
    long: files.long && keep(files.long),
    wide: files.wide && keep(files.wide),
    summary: files.summary && keep(files.summary),
    link: files.link && keep(files.link),
    dataQuality: keep(files.dataQuality),
    answers: keep(files.answers),
    visits: keep(files.visits),
    completeness: keep(files.completeness),
  };
};
