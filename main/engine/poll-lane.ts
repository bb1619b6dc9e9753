/**
 * The queue runner's polling lane: one step asks for the results that are due, within the shared budget.
 * Idleness is checked on every turn, not only when no poll is scheduled at all: timed-out recordings
 * keep slow re-checks scheduled for a day, yet nobody waiting for the batch waits for them.
 */
import { nextDueAt, runPollStep } from './poll-step';
import type { RunnerCore } from './runner-core';
import { checkIdle } from './runner-idle';
import { expirePause, napThroughPause, onFailure } from './runner-pause';

export const pollStep = async (r: RunnerCore): Promise<void> => {
  expirePause(r);
  if (r.pause?.storage) {
    await napThroughPause(r, r.pause);
    return;
  }
  const due = await nextDueAt(r.store, r.profileId);
  await checkIdle(r);
  if (due === null) {
    await r.nap(r.idleRecheckMs);
    return;
  }
  if (due > r.now()) {
    await r.nap(Math.min(due - r.now(), r.idleRecheckMs));
    return;
  }
  const res = await runPollStep(r.store, r.client, {
    profileId: r.profileId,
    now: r.now,
    settings: r.poll,
    bucket: r.budget,
    random: r.random,
    sleep: r.hold,
    limit: r.poll.globalBurst,
  });
  for (const c of res.changed) r.hub.recordingChanged(c.studyId, c.id, c.batchId);
  await checkIdle(r);
  if (res.writeError !== null) onFailure(r, res.writeError, 'storing polled results');
};
