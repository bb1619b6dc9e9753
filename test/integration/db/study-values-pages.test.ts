/**
 * The study's values in time order, read a page at a time (main/db/repos/change.repo.ts): the pages
 * together are the one pass, in the same order, and a page never ends inside a recording's values.
 */
import { describe, expect, it } from 'vitest';
import { studyValuesInTimeOrder } from '../../../main/db/repos/change.repo';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import { freshStudyDb } from '../../support/fresh-study-db';
import { seedLargeStudyDb } from '../../support/large-study';

const MEASURES = ['pd_hnr', 'pd_jitter', 'pd_shimmer', 'f0_mean', 'speech_rate'];

const seeded = () => {
  const db = freshStudyDb();
  // The last 300 recordings of a seeded study are still queued: 100 are uploaded.
  seedLargeStudyDb(db, { participants: 10, recordings: 400, now: Date.UTC(2026, 5, 1) });
  const put = db.prepare(
    `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num)
     SELECT id, ?, participant_id, recorded_at, id * 10 + ? FROM recordings
     WHERE upload_state = 'uploaded' AND api_version IS NOT NULL`,
  );
  MEASURES.forEach((m, i) => put.run(m, i));
  // Two recordings at the same time: their order is by number.
  db.prepare(
    `UPDATE recordings SET recorded_at = (SELECT recorded_at FROM recordings WHERE id = 2) WHERE id = 3`,
  ).run();
  return sqliteStore(db);
};

const pages = async (store: ReturnType<typeof seeded>, pageRows: number) => {
  const out = [];
  for await (const page of studyValuesInTimeOrder(store, 1, pageRows)) out.push(page);
  return out;
};

describe('the study values in time order, a page at a time', () => {
  it('are the one pass, in the same order, whatever the page size', async () => {
    const store = seeded();
    const whole = (await pages(store, 1_000_000)).flat();
    expect(whole.length).toBeGreaterThan(200);
    for (const size of [6, 7, 12, 64]) {
      const paged = await pages(store, size);
      expect(paged.length, `pages of ${size}`).toBeGreaterThan(1);
      expect(paged.flat(), `pages of ${size}`).toEqual(whole);
    }
  });

  it("never ends a page inside a recording's values", async () => {
    const store = seeded();
    const paged = await pages(store, 12);
    // Each row also carries its recording (the page's cursor).
    const recordingOf = (row: unknown) => (row as { recording_id: number }).recording_id;
    for (let i = 1; i < paged.length; i++)
      expect(recordingOf(paged[i - 1]!.at(-1))).not.toBe(recordingOf(paged[i]![0]));
  });

  it('lets the event loop turn between pages, so a long pass never holds the process', async () => {
    const store = seeded();
    // Counts the loop's turns: one immediate each turn, queued again by itself.
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const turnsBefore: number[] = [];
    try {
      for await (const _page of studyValuesInTimeOrder(store, 1, 12)) turnsBefore.push(turns);
    } finally {
      spinning = false;
    }
    expect(turnsBefore.length).toBeGreaterThan(10);
    // Each page after the first comes after at least one turn of the loop.
    for (let i = 1; i < turnsBefore.length; i++) expect(turnsBefore[i]).toBeGreaterThan(turnsBefore[i - 1]!);
  });

  it('refuses a page no larger than one recording’s values rather than lose some', async () => {
    await expect(pages(seeded(), 3)).rejects.toThrow(/has a page of values or more \(3\)/);
    await expect(pages(seeded(), 5)).rejects.toThrow(/has a page of values or more \(5\)/);
  });
});
