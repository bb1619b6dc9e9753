/**
 * The queue runner's pause: set by the researcher, by the service (organisation-wide refusals, rate
 * limits) or by the database failing. The pause in memory rules; writing it down is best effort.
 */
import { z } from 'zod';
import { ApiError } from '../../shared/api/api-error';
import { explainApiError } from '../../shared/api/api-error-explained';
import { classifyDbError, describeDbProblem } from '../db/db-errors';
import { appendEvent } from '../db/repos/event-log.repo';
import { deleteSetting, readSetting, writeSetting } from '../db/repos/settings.repo';
import { iso } from '../../shared/iso';
import type { RunnerCore, RunnerPause } from './runner-core';
import type { QueuePause } from './upload-step';

const PAUSE_KEY = (profileId: number) => `queue_pause:${profileId}`;
/** A pause as it is kept (a database pause never is). */
const StoredPause = z
  .object({ reason: z.string(), error: ApiError.nullable(), untilMs: z.number().nullable() })
  .nullable();

/** The pause an earlier process left for this profile (only open-ended pauses are kept). */
export const loadPause = async (r: RunnerCore): Promise<RunnerPause | null> =>
  (await readSetting(r.store, PAUSE_KEY(r.profileId), StoredPause)) ?? null;

/**
 * Only open-ended pauses (waiting for the researcher) outlive the process; a rate-limit pause ends by
 * itself, and a database pause is found again at the next start if the database still fails.
 */
const savePause = async (r: RunnerCore, pause: RunnerPause | null) => {
  if (pause?.storage) return;
  if (pause === null || pause.untilMs !== null) await deleteSetting(r.store, PAUSE_KEY(r.profileId));
  else await writeSetting(r.store, PAUSE_KEY(r.profileId), pause);
};

const writePause = async (r: RunnerCore, p: RunnerPause | null, at: string) => {
  await savePause(r, p);
  if (p) {
    const kind = p.storage ? p.storage.code : (p.error?.kind ?? 'researcher');
    await appendEvent(
      r.store,
      at,
      'queue_paused',
      {},
      { profile_id: r.profileId, kind, until: p.untilMs === null ? null : iso(p.untilMs) },
    );
  }
};

/**
 * The pause in memory rules at once; writing it down is best effort (the database may be what failed)
 * and happens in the background, each write after the one before (`pauseWrite`, awaited by stop()).
 */
export const setPause = (r: RunnerCore, p: RunnerPause | null): void => {
  const { profileId } = r;
  r.pause = p;
  if (p) r.emit({ type: 'queue-paused', profileId, reason: p.reason, untilMs: p.untilMs });
  else r.emit({ type: 'queue-resumed', profileId });
  const at = iso(r.now());
  r.pauseWrite = r.pauseWrite
    .then(() => writePause(r, p, at))
    .catch((e: unknown) => console.error('queue runner: the pause could not be written down', e));
};

/**
 * Something the engine did failed with an exception. A lost connection to a study database on a server
 * is waited out (runner-connection.ts). A database problem stops both lanes with its
 * reason until the researcher resumes (a lock: for a few seconds); anything else is logged and the
 * lanes carry on after a short wait (it is a defect, and the database keeps every state that matters).
 */
export const onFailure = (r: RunnerCore, e: unknown, where: string): void => {
  const problem = classifyDbError(e, r.dbPath === undefined ? {} : { dbPath: r.dbPath });
  if (r.store.connection?.lost || problem?.code === 'DB_CONNECTION_LOST') {
    // Told once as the database-connection event; the lanes wait for the store to reconnect.
    console.error(`queue runner: ${where} waits for the study database's connection to come back`);
    return;
  }
  console.error(
    `queue runner: ${where} failed:`,
    problem ? `${problem.sqliteCode ?? problem.code}: ${problem.message}` : e,
  );
  if (!problem || r.pause?.storage) return;
  const stopped = problem.retryable
    ? 'Sending and polling wait a few seconds.'
    : 'Sending and polling are paused until you resume.';
  setPause(r, {
    reason: describeDbProblem(problem, stopped),
    error: null,
    untilMs: problem.retryable ? r.now() + r.busyRetryMs : null,
    storage: problem,
  });
};

/** The service refused for the whole organisation or limited the rate: sending pauses. */
export const onServicePause = (r: RunnerCore, p: QueuePause): void => {
  if (p.untilMs !== null) r.budget.pauseUntil(p.untilMs);
  if (r.pause && (r.pause.untilMs === null || r.pause.storage)) return; // an open-ended or database pause is already in force
  const e = explainApiError(p.error);
  setPause(r, { reason: `${e.summary} ${e.action}`, error: p.error, untilMs: p.untilMs });
};

/** A pause with an end ends when its time comes. */
export const expirePause = (r: RunnerCore): void => {
  if (r.pause && r.pause.untilMs !== null && r.now() >= r.pause.untilMs) setPause(r, null);
};

/** Waits out (part of) the pause in force. */
export const napThroughPause = (r: RunnerCore, pause: RunnerPause): Promise<void> =>
  r.nap(pause.untilMs === null ? r.idleRecheckMs : pause.untilMs - r.now());
