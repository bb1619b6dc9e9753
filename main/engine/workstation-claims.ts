/**
 * The runner as one workstation among several on a study's queue: it says it is here (and renews the
 * claims on the uploads it is sending) every quarter of a lease, turns uploads whose sender's claim ran
 * out into uncertain ones, and looks for files other workstations hold at the same path on this one.
 */
import { stat } from 'node:fs/promises';
import { iso } from '../../shared/iso';
import { sha256OfFile } from '../audio/convert-decoded';
import { recordingPlace } from '../db/repos/queue.repo';
import { expireLapsedClaims, renewClaims } from '../db/repos/uploads.repo';
import { filesHeldElsewhere, recordHolding, touchWorkstation } from '../db/repos/workstations.repo';
import type { RunnerCore } from './runner-core';

/** A file not found here is looked for again this much later (a drive may be connected meanwhile). */
export const LOOK_AGAIN_MS = 10 * 60_000;

const tellChanged = async (r: RunnerCore, ids: readonly number[]) => {
  for (const id of ids) {
    const place = await recordingPlace(r.store, id);
    r.hub.recordingChanged(place.studyId, id, place.batchId);
  }
};

/** Here again: last seen now, the claims in flight renewed, lapsed claims of others made uncertain. */
export const heartbeat = async (r: RunnerCore): Promise<void> => {
  await touchWorkstation(r.store, r.workstation);
  const sending = [...new Set([...r.inFlight.keys(), ...r.unrecorded.keys()])];
  await renewClaims(r.store, r.workstation, sending, r.leaseSeconds);
  await tellChanged(r, await expireLapsedClaims(r.store, iso(r.now()), r.workstation));
};

/**
 * Runs the heartbeat every quarter of a lease, and at once when the database connection comes back
 * (the claims held through it must not run out), until stopped; returns the way to stop it.
 */
export const startHeartbeat = (r: RunnerCore, onError: (e: unknown) => void): (() => Promise<void>) => {
  let beating: Promise<void> = Promise.resolve();
  const beat = () => {
    // While the database connection is lost there is no one to tell: it beats again as soon as it is back.
    if (r.store.connection?.lost) return;
    beating = beating.then(() => heartbeat(r)).catch(onError);
  };
  const t = setInterval(beat, (r.leaseSeconds * 1000) / 4);
  const unwatch = r.store.connection?.onChange((c) => c.state === 'restored' && beat());
  return async () => {
    clearInterval(t);
    unwatch?.();
    await beating;
  };
};

/** Whether the file at `path` is the one imported: the size first, the SHA-256 only when that matches. */
const sameFile = async (path: string, sizeBytes: number, sha256: string): Promise<boolean> => {
  try {
    if ((await stat(path)).size !== sizeBytes) return false;
    return (await sha256OfFile(path)) === sha256;
  } catch {
    return false;
  }
};

/**
 * When nothing this workstation holds is queued: the oldest queued file another workstation holds is
 * looked for here, at the same path (a shared drive); found with the same content, this workstation
 * holds it too and may send it. True when one was found.
 */
export const findHeldElsewhere = async (r: RunnerCore): Promise<boolean> => {
  const nowMs = r.now();
  for (const [id, again] of r.lookedFor) if (again <= nowMs) r.lookedFor.delete(id);
  const lately = [...r.lookedFor.keys()];
  for (const f of await filesHeldElsewhere(r.store, r.profileId, r.workstation, 20, lately)) {
    if (!(await sameFile(f.path, f.sizeBytes, f.sha256))) {
      r.lookedFor.set(f.recordingId, nowMs + LOOK_AGAIN_MS);
      continue;
    }
    // Found: if writing that down fails (a locked database), it is looked for again at the next step,
    // not ten minutes later.
    await recordHolding(r.store, { ...f, workstation: r.workstation });
    return true;
  }
  return false;
};
