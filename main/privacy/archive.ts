/**
 * Archiving a study while the app runs: SQLite's online backup API (better-sqlite3 `db.backup`) copies
 * a consistent snapshot of the study database page by page while the engine keeps writing. The copy
 * is then trimmed to this one study (another study's participants must not travel with it), its key
 * references are cleared (an archive never points at a key), and it is written beside a JSON of the
 * study's settings and a SHA256SUMS file. The folder appears only when everything is written.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import { archivedStudyRow, trimCopyToStudy } from '../db/repos/archive.repo';
import { appendAuditAlone } from '../db/repos/audit.repo';
import { storeSchemaVersion } from '../db/store/migrate-store';
import type { Store } from '../db/store/types';
import { archivesDirOf } from '../workspace/workspace';

export const ARCHIVE_DB_FILE = 'study.sqlite';
export const ARCHIVE_SETTINGS_FILE = 'study-settings.json';

export interface ArchiveProblem {
  readonly message: string;
  readonly action: string;
}

export interface ArchiveReport {
  readonly folder: string;
  readonly files: readonly { readonly name: string; readonly bytes: number; readonly sha256: string }[];
  readonly participants: number;
  readonly recordings: number;
  readonly archivedAt: string;
}

export interface ArchiveOptions {
  readonly studyId: number;
  readonly workspaceDir: string;
  /** A folder the researcher chose; default the workspace's archives folder. */
  readonly outDir?: string;
  readonly appVersion: string;
  /** The engine's tuning, written into the settings file. */
  readonly engineSettings: unknown;
  readonly now: () => number;
}

const slug = (name: string, id: number) =>
  name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || `study-${id}`;
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** `backup` copies the whole study database into a SQLite file (SQLite's online backup of the study file). */
export const archiveStudy = async (
  store: Store,
  backup: ((file: string) => Promise<void>) | null,
  o: ArchiveOptions,
): Promise<Result<ArchiveReport, ArchiveProblem>> => {
  if (backup === null)
    return err({
      message: 'A study kept on a database server is not archived by Voicescope.',
      action: "Ask the server's administrator for a backup of the study database.",
    });
  const study = await archivedStudyRow(store, o.studyId);
  if (!study)
    return err({
      message: 'This study does not exist (any more).',
      action: 'Go back to the list of studies.',
    });
  if (
    o.outDir !== undefined &&
    (!isAbsolute(o.outDir) || !existsSync(o.outDir) || !statSync(o.outDir).isDirectory())
  ) {
    return err({
      message: `The folder "${o.outDir}" does not exist.`,
      action: 'Choose an existing folder, or leave the field empty to archive into the workspace.',
    });
  }
  const parent = o.outDir ?? archivesDirOf(o.workspaceDir);
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  const archivedAt = new Date(o.now()).toISOString();
  const base = `${slug(study.name, study.id)}-archive-${stamp(o.now())}`;
  let name = base;
  for (let i = 2; existsSync(join(parent, name)); i++) name = `${base}-${i}`;
  const tmp = join(parent, `.${name}.partial-${randomBytes(4).toString('hex')}`);
  mkdirSync(tmp, { mode: 0o700 });
  try {
    const dbFile = join(tmp, ARCHIVE_DB_FILE);
    await backup(dbFile);
    chmodSync(dbFile, 0o600);
    const counts = trimCopyToStudy(dbFile, study.id);
    const settings = {
      format: 'voicescope-study-archive',
      formatVersion: 1,
      appVersion: o.appVersion,
      dbSchemaVersion: await storeSchemaVersion(store),
      archivedAt,
      study: {
        id: study.id,
        name: study.name,
        createdAt: study.created_at,
        sessionIntervalDays: study.session_interval_days,
      },
      serviceProfile:
        study.profile_id === null
          ? null
          : {
              name: study.profile_name,
              baseUrl: study.base_url,
              apiVersion: study.api_version,
              simulated: study.is_sandbox === 1,
              apiKey: 'not archived: API keys never leave the computer they were entered on',
            },
      engine: o.engineSettings,
      counts,
      contents: `${ARCHIVE_DB_FILE} is a SQLite database holding only this study (participants, recordings, analyses, values, its event and audit log). Open it with any SQLite tool, or copy it into a Voicescope workspace as voicescope.sqlite to work with it again.`,
    };
    writeFileSync(join(tmp, ARCHIVE_SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`, {
      mode: 0o600,
    });
    const files = [ARCHIVE_DB_FILE, ARCHIVE_SETTINGS_FILE].map((f) => ({
      name: f,
      bytes: statSync(join(tmp, f)).size,
      sha256: sha256(join(tmp, f)),
    }));
    writeFileSync(join(tmp, 'SHA256SUMS'), files.map((f) => `${f.sha256}  ${f.name}\n`).join(''), {
      mode: 0o600,
    });
    renameSync(tmp, join(parent, name));
    await appendAuditAlone(store, {
      at: archivedAt,
      kind: 'study_archived',
      studyId: study.id,
      subject: study.name,
      detail: {
        participants: counts.participants,
        recordings: counts.recordings,
        bytes: files[0]!.bytes,
        place: o.outDir === undefined ? 'workspace' : 'chosen-folder',
      },
    });
    return ok({ folder: join(parent, name), files, ...counts, archivedAt });
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'SQLITE_FULL')
      return err({
        message: 'The disk is full, so the archive could not be written. Nothing was left behind.',
        action: 'Free some space or choose another folder, then archive again.',
      });
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      return err({
        message: `Voicescope may not write in ${parent}.`,
        action: 'Choose a folder you can write to.',
      });
    throw e;
  }
};
