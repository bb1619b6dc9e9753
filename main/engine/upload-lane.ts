/**
 * The queue runner's upload lane: one step sends the next queued recording (bounded concurrency, the
 * upload rate and the shared budget), after writing any outcome the database refused earlier and after
 * recovering uploads an earlier process left `uploading`. When nothing is left, drained batches finish.
 */
import type { Usage } from '../../shared/api/domain';
import { finishDrainedBatches, setBatchUsageAfter } from '../db/repos/batches.repo';
import { annotateUncertainUsage, recordingPlace } from '../db/repos/queue.repo';
import { claimNextUpload, heldQueuedRows, recoverInterruptedUploads } from '../db/repos/uploads.repo';
import { touchWorkstation } from '../db/repos/workstations.repo';
import { latestUsage, recordUsage } from '../db/repos/usage.repo';
import { iso } from '../../shared/iso';
import type { RunnerCore } from './runner-core';
import { checkIdle } from './runner-idle';
import { expirePause, napThroughPause, onFailure, onServicePause } from './runner-pause';
import { sendClaimed, toQueuedRecording, type QueuedRecording, type UploadOneOutcome } from './upload-step';
import { findHeldElsewhere } from './workstation-claims';

/** Reads the usage counters (within the shared budget), records them and tells the UI; null if the service would not say. */
const readUsage = async (r: RunnerCore): Promise<Usage | null> => {
  const wait = await r.budget.reserve();
  if (wait > 0) await r.hold(wait);
  const res = await r.client.getUsage();
  if (!res.ok) return null;
  await recordUsage(r.store, r.profileId, iso(r.now()), res.value);
  r.emit({ type: 'usage', profileId: r.profileId, usage: res.value });
  return res.value;
};

/** What is known about an uncertain upload: the usage counters before and after it, for the researcher's decision. */
const annotateUncertain = async (r: RunnerCore, recordingId: number) => {
  const before = (await latestUsage(r.store, r.profileId))?.usage ?? null;
  const after = await readUsage(r);
  await annotateUncertainUsage(r.store, recordingId, before, after);
};

const settleBatches = async (r: RunnerCore) => {
  const finished = await finishDrainedBatches(r.store, r.profileId, iso(r.now()), r.seesPartOfStudy);
  if (finished.length === 0) return;
  for (const id of finished) r.hub.batchChanged(id);
  const usage = await readUsage(r);
  if (usage) await setBatchUsageAfter(r.store, finished, usage);
};

/** What the runner does with an upload's outcome once it is written (or keeps it to write later). */
const afterOutcome = async (r: RunnerCore, row: QueuedRecording, out: UploadOneOutcome) => {
  if (out.kind === 'unrecorded') {
    r.unrecorded.set(row.id, { row, out });
    // In the log too, so that what the service answered survives even if the process does not.
    console.error(
      `queue runner: recording ${row.id} was sent and ${out.answer}, but that could not be saved yet`,
    );
    onFailure(r, out.error, `saving the outcome of recording ${row.id}`);
    return;
  }
  if (out.kind === 'paused') onServicePause(r, out.pause);
  if (out.kind === 'uncertain') await annotateUncertain(r, row.id);
  r.hub.recordingChanged(row.studyId, row.id, row.batchId);
};

/** Writes the outcomes kept in memory, oldest first; false if the database still refuses. */
export const writeUnrecorded = async (r: RunnerCore): Promise<boolean> => {
  for (const [id, { row, out }] of [...r.unrecorded]) {
    const next = await out.retry();
    if (next.kind === 'unrecorded') {
      r.unrecorded.set(id, { row, out: next });
      onFailure(r, next.error, `saving the outcome of recording ${id}`);
      return false;
    }
    r.unrecorded.delete(id);
    await afterOutcome(r, row, next);
  }
  return true;
};

/**
 * The workstation says it is here; rows its earlier process left `uploading` (and any whose claim ran
 * out) become uncertain; until that is written, nothing is sent. Run again after the database
 * connection came back: then the uploads this process is sending, or has an answer for, are kept.
 */
export const recover = async (r: RunnerCore): Promise<void> => {
  await touchWorkstation(r.store, r.workstation);
  const keep = [...r.inFlight.keys(), ...r.unrecorded.keys()];
  const here = r.reconnected ? 'reconnected' : 'stopped';
  for (const id of await recoverInterruptedUploads(r.store, iso(r.now()), r.workstation, keep, here)) {
    const place = await recordingPlace(r.store, id);
    r.hub.recordingChanged(place.studyId, id, place.batchId);
  }
  r.recovered = true;
  r.reconnected = false;
};

/** Starts sending one claimed recording and returns without waiting for it (it is kept in `inFlight`). */
const send = (r: RunnerCore, row: QueuedRecording) => {
  const task = (async () => {
    const out = await sendClaimed(r.store, r.client, row, {
      now: r.now,
      firstPollAfterMs: r.poll.firstPollAfterMs,
      ...(r.openAudio ? { openAudio: r.openAudio } : {}),
    });
    await afterOutcome(r, row, out);
  })()
    .catch((e: unknown) => onFailure(r, e, `sending recording ${row.id}`))
    .finally(() => {
      r.inFlight.delete(row.id);
      r.wake();
    });
  r.inFlight.set(row.id, task);
};

export const uploadStep = async (r: RunnerCore): Promise<void> => {
  expirePause(r);
  if (r.pause) {
    await napThroughPause(r, r.pause);
    return;
  }
  if (!r.recovered) await recover(r);
  if (r.unrecorded.size > 0 && !(await writeUnrecorded(r))) {
    await r.nap(r.idleRecheckMs);
    return;
  }
  if (r.inFlight.size >= r.queue.uploadConcurrency) {
    await r.nap(r.idleRecheckMs);
    return;
  }
  const sending = [...r.inFlight.keys()];
  const [next] = await heldQueuedRows(r.store, r.profileId, r.workstation, sending, 1);
  if (!next) {
    if (await findHeldElsewhere(r)) return;
    if (r.inFlight.size === 0) await settleBatches(r);
    await checkIdle(r);
    await r.nap(r.idleRecheckMs);
    return;
  }
  const wait = Math.max(await r.uploadRate.reserve(), await r.budget.reserve());
  if (wait > 0) await r.hold(wait);
  if (!r.running || r.pause) return;
  // The claim commits the intent (its transaction ended) before the request is sent; another
  // workstation may have taken `next` meanwhile: then the next one this workstation may send.
  const claimed = await claimNextUpload(
    r.store,
    iso(r.now()),
    r.profileId,
    { workstation: r.workstation, leaseSeconds: r.leaseSeconds },
    [...r.inFlight.keys()],
  );
  if (claimed) send(r, toQueuedRecording(claimed));
};
