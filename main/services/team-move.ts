/**
 * Moving a study into and out of a team database: `team import-study` copies a single-user study
 * (a workspace's SQLite file) into the team database, `team export-study` writes a team study to a new
 * SQLite study file for archiving. Both copy every row of the study (main/db/move/), in one
 * transaction on the side written, verify the audit chain before and after, and count the study's rows
 * table by table on both sides: a difference leaves nothing written.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import { verifyAuditChain } from '../db/repos/audit.repo';
import { studyIdByNameOrId, studyName, studyNameTaken } from '../db/repos/studies.repo';
import { copyStudy, type StudyCopy } from '../db/move/copy-study';
import { copyPlan } from '../db/move/plan';
import { copyStudyFile, schemaOf, schemaVersionOf } from '../db/move/study-file';
import { tryOpenStudyDb } from '../db/open';
import { sqliteStore } from '../db/store/sqlite-store';
import type { Queryable, Store } from '../db/store/types';
import { studyDbPathOf } from '../workspace/workspace';
import type { TeamProblem } from './team-problem';

export interface StudyMove extends StudyCopy {
  readonly study: string;
  /** Every table's count the same on both sides (otherwise nothing was written). */
  readonly complete: boolean;
  /** Tables of the source not copied: the workstation's own (settings, usage readings) and the team's. */
  readonly leftOut: readonly string[];
  /** Entries of the audit chain verified on the side written, after the copy. */
  readonly auditEntries: number;
}

const problem = (code: TeamProblem['code'], message: string) => err<TeamProblem>({ code, message });

/**
 * The copy reads its source (a private copy of a file, or a read-only snapshot) and writes the target
 * only: a server aborting it for a conflict with a member's work may run it again.
 */
const REPEATABLE = { repeatable: true } as const;

/** Thrown inside the transaction to roll the copy back with its counts. */
class Incomplete extends Error {
  constructor(readonly move: StudyMove) {
    super('the copy is incomplete');
  }
}

const sameSchema = async (from: Queryable, to: Queryable, toName: string) => {
  const [a, b] = [await schemaVersionOf(from), await schemaVersionOf(to)];
  if (a === b) return null;
  return a > b
    ? `${toName} has schema ${b}, older than this Voicescope's ${a}: bring it up to date first (voicescope team init for a team database).`
    : `${toName} has schema ${b}, newer than this Voicescope's ${a}: use the newer Voicescope.`;
};

const chainBroken = async (q: Queryable, where: string): Promise<string | null> => {
  const chain = await verifyAuditChain(q);
  return chain.ok
    ? null
    : `The audit log of ${where} does not verify (entry ${chain.firstBroken.id}, ${chain.firstBroken.kind}, ${chain.reason}): it is not moved.`;
};

/** Copies study `studyId` of `from` into `to` in one transaction; rolled back if a count differs or the chain breaks. */
const moveStudy = async (
  from: Queryable,
  to: Store,
  studyId: number,
  name: string,
): Promise<Result<StudyMove, TeamProblem>> => {
  const plan = copyPlan(await schemaOf(from));
  try {
    return await to.transaction(async (tx) => {
      if (await studyNameTaken(tx, name))
        return problem(
          'TAKEN',
          `There is already a study named "${name}" there: nothing was copied. Rename one of the two studies first.`,
        );
      const copy = await copyStudy(from, tx, plan, studyId);
      const chain = await verifyAuditChain(tx);
      const move: StudyMove = {
        ...copy,
        study: name,
        complete: chain.ok && copy.counts.every((c) => c.before === c.after),
        leftOut: plan.leftOut,
        auditEntries: chain.entries,
      };
      if (!move.complete) throw new Incomplete(move);
      return ok(move);
    }, REPEATABLE);
  } catch (e) {
    if (e instanceof Incomplete) return ok(e.move);
    throw e;
  }
};

/** A SQLite study file opened (and brought to this Voicescope's schema) as a store, or why it cannot be. */
const openStudyFile = (file: string, shown: string): Result<Store, TeamProblem> => {
  const opened = tryOpenStudyDb(file);
  return opened.ok
    ? ok(sqliteStore(opened.value.db))
    : problem(
        'NOT_FOUND',
        `${shown} cannot be opened as a Voicescope study database: ${opened.error.message}`,
      );
};

/** A study file this move wrote and does not keep, with its companions. */
const removeStudyFile = (file: string) => {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
};

/** The study database of a workspace folder, or the file itself. */
const studyFileOf = (from: string): string | null => {
  if (!existsSync(from)) return null;
  const file = statSync(from).isDirectory() ? studyDbPathOf(from) : from;
  return existsSync(file) ? file : null;
};

/**
 * Copies `study` (name or id) of the single-user study at `from` (a Voicescope home folder or its
 * study file) into the team database `target`. The file is read through a copy, brought to this
 * Voicescope's schema; the researcher's own file is left as it was.
 */
export const importStudy = async (
  target: Store,
  from: string,
  study: string,
): Promise<Result<StudyMove, TeamProblem>> => {
  const file = studyFileOf(from);
  if (file === null) return problem('NOT_FOUND', `There is no Voicescope study database at ${from}.`);
  const dir = mkdtempSync(join(tmpdir(), 'voicescope-import-study-'));
  try {
    const copy = join(dir, 'study.sqlite');
    try {
      await copyStudyFile(file, copy);
    } catch (e) {
      return problem('NOT_FOUND', `${file} cannot be read as a Voicescope study database (${String(e)}).`);
    }
    const opened = openStudyFile(copy, file);
    if (!opened.ok) return opened;
    const source = opened.value;
    try {
      const older = await sameSchema(source, target, 'The team database');
      if (older) return problem('NOT_TEAM', older);
      const studyId = await studyIdByNameOrId(source, study);
      if (studyId === null) return problem('NOT_FOUND', `${file} has no study named "${study}".`);
      const broken = await chainBroken(source, file);
      if (broken) return problem('AUDIT', broken);
      return await moveStudy(source, target, studyId, (await studyName(source, studyId))!);
    } finally {
      await source.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * Writes `study` of the team database `source` to `to`, a new single-user study file of this
 * Voicescope's schema holding that study alone; read from a consistent snapshot of the team database.
 */
export const exportStudy = async (
  source: Store,
  study: string,
  to: string,
): Promise<Result<StudyMove, TeamProblem>> => {
  if (existsSync(to)) return problem('TAKEN', `${to} already exists: name a new file.`);
  if (!existsSync(dirname(to)))
    return problem('NOT_FOUND', `There is no folder ${dirname(to)} to write ${to} in.`);
  const studyId = await studyIdByNameOrId(source, study);
  if (studyId === null)
    return problem('NOT_FOUND', `There is no study named "${study}" in this team database.`);
  let written = false;
  const opened = openStudyFile(to, to);
  if (!opened.ok) {
    removeStudyFile(to);
    return opened;
  }
  const target = opened.value;
  try {
    const r = await source.snapshot(async (snap) => {
      const newer = await sameSchema(target, snap, 'The team database');
      if (newer) return problem('NOT_TEAM', newer);
      const broken = await chainBroken(snap, 'the team database');
      if (broken) return problem('AUDIT', broken);
      return moveStudy(snap, target, studyId, (await studyName(snap, studyId))!);
    });
    written = r.ok && r.value.complete;
    return r;
  } finally {
    await target.close();
    if (!written) removeStudyFile(to);
  }
};
