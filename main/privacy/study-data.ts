/**
 * A study's local data, as the researcher sees it before deleting: what the database holds, what
 * files Voicescope made for it in the workspace (converted copies, browser-mode exports), and whether
 * anything is being sent right now. Deleting removes the study's rows (participants, recordings,
 * analyses and values go with it through the schema's cascades) and those files; the event log and the
 * audit log keep their entries, which hold ids and counts but no participant code. Original
 * recordings are the researcher's and are never touched; archives they made are kept.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import type { Queryable, Store } from '../db/store/types';
import { studyName } from '../db/repos/studies.repo';
import {
  deleteStudyRows,
  lastArchivedAt,
  studyActivity,
  studyRowCounts,
  uploadPathsOfStudy,
} from '../db/repos/study-data.repo';
import { convertedDirOf, exportsDirOf, playbackDirOf } from '../workspace/workspace';

export interface StudyDataProblem {
  readonly message: string;
  readonly action: string;
  readonly code: 'NOT_FOUND' | 'REFUSED' | 'CONFLICT';
}

export interface StudyDataSummary {
  readonly studyId: number;
  readonly name: string;
  readonly participants: number;
  readonly recordings: number;
  readonly measureValues: number;
  readonly convertedFiles: number;
  readonly exportFolders: number;
  readonly localBytes: number;
  /** Batches sending now (running), and uploads whose answer has not come yet. */
  readonly runningBatches: number;
  readonly uploadsInFlight: number;
  /** The last archive of this study, from the audit log. */
  readonly lastArchivedAt: string | null;
}

export interface DeleteReport {
  readonly studyId: number;
  readonly name: string;
  readonly participants: number;
  readonly recordings: number;
  readonly removedFiles: number;
  readonly removedExportFolders: number;
  /** Files that could not be removed (still open elsewhere, permissions); the researcher is told. */
  readonly leftBehind: readonly string[];
  /** False when another connection (an export running) kept the write-ahead log from being emptied; it is at the next checkpoint. */
  readonly databaseScrubbed: boolean;
}

const inside = (root: string, p: string) => {
  const r = relative(resolve(root), resolve(p));
  return r !== '' && !r.startsWith('..') && !r.startsWith(sep) && !/^[A-Za-z]:/.test(r);
};

const sizeOf = (p: string): { files: number; bytes: number } => {
  try {
    const st = statSync(p);
    if (st.isFile()) return { files: 1, bytes: st.size };
    if (!st.isDirectory()) return { files: 0, bytes: 0 };
    return readdirSync(p).reduce(
      (acc, e) => {
        const s = sizeOf(join(p, e));
        return { files: acc.files + s.files, bytes: acc.bytes + s.bytes };
      },
      { files: 0, bytes: 0 },
    );
  } catch {
    return { files: 0, bytes: 0 };
  }
};

/** Export folders in the workspace whose datapackage.json names this study. */
const exportFoldersOf = (workspaceDir: string, studyId: number): string[] => {
  const root = exportsDirOf(workspaceDir);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((e) => join(root, e))
    .filter((dir) => {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'datapackage.json'), 'utf8')) as {
          voicescope?: { studyId?: unknown };
        };
        return pkg.voicescope?.studyId === studyId;
      } catch {
        return false;
      }
    });
};

/** Converted copies written for this study: its folder, and any upload copy elsewhere inside the workspace. */
const convertedOf = async (q: Queryable, workspaceDir: string, studyId: number): Promise<string[]> => {
  const dir = convertedDirOf(workspaceDir, studyId);
  const copies = (await uploadPathsOfStudy(q, studyId)).filter(
    (p) => inside(workspaceDir, p) && !inside(dir, p),
  );
  return [...(existsSync(dir) ? [dir] : []), ...copies];
};

export const studyDataSummary = async (
  store: Store,
  workspaceDir: string,
  studyId: number,
): Promise<StudyDataSummary | null> => {
  const name = await studyName(store, studyId);
  if (name === null) return null;
  const converted = (await convertedOf(store, workspaceDir, studyId)).map(sizeOf);
  const exports = exportFoldersOf(workspaceDir, studyId);
  const exportSizes = exports.map(sizeOf);
  return {
    studyId,
    name,
    ...(await studyRowCounts(store, studyId)),
    convertedFiles: converted.reduce((a, s) => a + s.files, 0),
    exportFolders: exports.length,
    localBytes: [...converted, ...exportSizes].reduce((a, s) => a + s.bytes, 0),
    ...(await studyActivity(store, studyId)),
    lastArchivedAt: await lastArchivedAt(store, studyId),
  };
};

/**
 * Deletes the study after the researcher typed its name. Refused while a batch of the study is
 * sending (cancel it first) or an upload's answer is still awaited (it settles within minutes).
 */
export const deleteStudy = async (
  store: Store,
  o: { studyId: number; confirmName: string; workspaceDir: string; now: () => number },
): Promise<Result<DeleteReport, StudyDataProblem>> => {
  const name = await studyName(store, o.studyId);
  if (name === null)
    return err({
      code: 'NOT_FOUND',
      message: 'This study does not exist (any more).',
      action: 'Go back to the list of studies.',
    });
  if (o.confirmName.trim() !== name) {
    return err({
      code: 'REFUSED',
      message: 'The name you typed is not the name of this study, so nothing was deleted.',
      action: `Type the study's name exactly as shown: ${name}`,
    });
  }
  const b = await studyActivity(store, o.studyId);
  if (b.runningBatches > 0) {
    return err({
      code: 'CONFLICT',
      message: 'A batch of this study is sending recordings now, so the study cannot be deleted.',
      action:
        'Cancel the batch on the Batches screen first (recordings already sent stay with the service), then delete.',
    });
  }
  if (b.uploadsInFlight > 0) {
    return err({
      code: 'CONFLICT',
      message: `${b.uploadsInFlight === 1 ? 'One upload' : `${b.uploadsInFlight} uploads`} of this study ${b.uploadsInFlight === 1 ? 'is' : 'are'} still waiting for the service's answer.`,
      action: 'Wait a minute until the answer has come, then delete.',
    });
  }
  const files = await convertedOf(store, o.workspaceDir, o.studyId);
  const exports = exportFoldersOf(o.workspaceDir, o.studyId);
  const counts = await deleteStudyRows(store, o.studyId, ({ participants, recordings }) => ({
    at: new Date(o.now()).toISOString(),
    kind: 'study_deleted',
    studyId: o.studyId,
    subject: name,
    detail: {
      participants,
      recordings,
      converted_files: files.map(sizeOf).reduce((a, s) => a + s.files, 0),
      export_folders: exports.length,
    },
  }));
  const leftBehind: string[] = [];
  let removedFiles = 0;
  // The window's decoded playback copies are a cache of the last few recordings played, of any study:
  // emptied whole, so none of the deleted study's audio is left in it.
  const playback = playbackDirOf(o.workspaceDir);
  try {
    rmSync(playback, { recursive: true, force: true });
  } catch {
    leftBehind.push(playback);
  }
  for (const p of [...files, ...exports]) {
    const s = sizeOf(p);
    try {
      rmSync(p, { recursive: true, force: true });
      if (!exports.includes(p)) removedFiles += s.files;
    } catch {
      leftBehind.push(p);
    }
  }
  return ok({
    studyId: o.studyId,
    name,
    participants: counts.participants,
    recordings: counts.recordings,
    removedFiles,
    removedExportFolders: exports.filter((p) => !leftBehind.includes(p)).length,
    leftBehind,
    databaseScrubbed: counts.scrubbed,
  });
};
