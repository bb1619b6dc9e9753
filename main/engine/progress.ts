/**
 * Progress for the UI, coalesced: the engine marks what changed (cheap, any number of times), and at
 * most every `intervalMs` one flush sends the counts of the batches touched and the ids of the
 * recordings touched. Thousands of files cost a few events a second; an idle engine sends nothing.
 */
import type { BatchProgress, EngineEvent } from '../../shared/study';
import type { Store } from '../db/store/types';
import { batchProgress } from '../db/repos/batches.repo';

export interface ProgressHub {
  recordingChanged(studyId: number, recordingId: number, batchId: number | null): void;
  batchChanged(batchId: number): void;
  /** Sends everything pending now (after any flush already under way). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Recording ids listed per event at most; beyond that the UI reloads the whole list. */
export const MAX_IDS_PER_EVENT = 500;

/**
 * Recording ids go out every `intervalMs`; batch counts (a count over the whole batch, about 12 ms for
 * 10,000 recordings) at most every `batchIntervalMs`.
 */
export const createProgressHub = (
  store: Store,
  emit: (e: EngineEvent) => void,
  intervalMs = 250,
  batchIntervalMs = 1_000,
): ProgressHub => {
  const batches = new Set<number>();
  let lastBatchFlush = -Infinity;
  const recordings = new Map<number, Set<number>>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  // Flushes run one after another, so events go out in the order things changed.
  let flushing: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (timer === null && !closed) timer = setTimeout(() => void flushSafely(false), intervalMs);
  };
  const flushNow = async (force: boolean) => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const batchesDue = force || Date.now() - lastBatchFlush >= batchIntervalMs;
    if (batches.size > 0 && !batchesDue) schedule();
    if (batches.size > 0 && batchesDue) {
      lastBatchFlush = Date.now();
      const ids = [...batches];
      batches.clear();
      const list: BatchProgress[] = [];
      for (const id of ids) {
        const b = await batchProgress(store, id);
        if (b !== null) list.push(b);
      }
      if (list.length > 0) emit({ type: 'batch-progress', batches: list });
    }
    for (const [studyId, ids] of recordings) {
      const all = [...ids];
      emit({
        type: 'recordings-changed',
        studyId,
        recordingIds: all.slice(0, MAX_IDS_PER_EVENT),
        truncated: all.length > MAX_IDS_PER_EVENT,
      });
    }
    recordings.clear();
  };
  const flush = (force = true): Promise<void> => {
    const next = flushing.then(() => flushNow(force));
    flushing = next.catch(() => {});
    return next;
  };
  /**
   * From a timer, nobody would catch a database failure (disk gone, file damaged): it would end the
   * process. Progress is only a view, so it is skipped; the engine reports the failure where it writes.
   */
  const flushSafely = (force: boolean) =>
    flush(force).catch((e: unknown) => {
      console.error(
        'voicescope: progress could not be read from the study database',
        e instanceof Error ? e.message : e,
      );
    });
  return {
    recordingChanged(studyId, recordingId, batchId) {
      let set = recordings.get(studyId);
      if (!set) recordings.set(studyId, (set = new Set()));
      set.add(recordingId);
      if (batchId !== null) batches.add(batchId);
      schedule();
    },
    batchChanged(batchId) {
      batches.add(batchId);
      schedule();
    },
    flush: () => flush(true),
    async close() {
      closed = true;
      await flush();
    },
  };
};
