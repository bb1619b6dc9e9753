/**
 * The recordings table of a large study (test/support/large-study.ts: 100,000 recordings of 10,000
 * participants in 10 batches, in the mix of states a real study has). One page of 100 rows, as the
 * virtualised table asks for it, for every sort both ways (first page and a page deep in the table),
 * every filter, a batch, a participant and searches. Run alone: `npx tsx test/bench/recordings.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb } from '../../main/db/open';
import { timeRunsAsync } from './timing';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { LARGE_STUDY, seedLargeStudyDb } from '../support/large-study';
import {
  recordingPage,
  type RecordingFilter,
  type RecordingQuery,
  type RecordingSort,
} from '../../main/db/repos/recordings-view.repo';
import { RECORDING_FILTERS, RECORDING_SORTS } from '../../shared/contract/recordings.contract';

const { participants: PARTICIPANTS, recordings: RECORDINGS } = LARGE_STUDY;
const BATCHES = 10;

const SORTS: readonly RecordingSort[] = RECORDING_SORTS;
const FILTERS: readonly RecordingFilter[] = RECORDING_FILTERS;

const time = (fn: () => Promise<unknown>) => timeRunsAsync(fn, 15);
const ms = (r: { p50: number; max: number }) => `${r.p50.toFixed(1)} / ${r.max.toFixed(1)} ms`;

export const benchRecordings = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-rbench-'));
  const { db } = openStudyDb(join(dir, 'study.sqlite'));
  try {
    const t0 = performance.now();
    seedLargeStudyDb(db);
    const store = sqliteStore(db);
    const lines = [
      `${RECORDINGS.toLocaleString('en')} recordings, ${PARTICIPANTS.toLocaleString('en')} participants, ${BATCHES} batches (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s); recordings.page, 100 rows, p50 / max of 15 runs:`,
    ];
    const page = (q: Partial<RecordingQuery>) =>
      recordingPage(store, { studyId: 1, sort: 'recorded_at', dir: 'desc', offset: 0, limit: 100, ...q });
    for (const sort of SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const first = await time(() => page({ sort, dir }));
        const deep = await time(() => page({ sort, dir, offset: 50_000 }));
        lines.push(
          `  sort ${sort.padEnd(11)} ${dir.padEnd(4)} first page ${ms(first)}, page at row 50,000 ${ms(deep)}`,
        );
      }
    }
    for (const filter of FILTERS) {
      const r = await time(() => page({ filter }));
      const n = (await page({ filter })).total;
      const deep =
        n > 5_000
          ? `, page at row ${Math.floor(n / 2).toLocaleString('en')} ${ms(await time(() => page({ filter, offset: Math.floor(n / 2) })))}`
          : '';
      lines.push(`  filter ${filter.padEnd(16)} ${ms(r)} (${n.toLocaleString('en')} rows)${deep}`);
    }
    lines.push(
      `  batch 4, by file name       ${ms(await time(() => page({ batchId: 4, sort: 'file', dir: 'asc' })))} (${(await page({ batchId: 4 })).total.toLocaleString('en')} rows)`,
    );
    lines.push(
      `  batch 4, needs attention    ${ms(await time(() => page({ batchId: 4, filter: 'needs_attention' })))}`,
    );
    lines.push(
      `  one participant             ${ms(await time(() => page({ participantId: 4321 })))} (${(await page({ participantId: 4321 })).total} rows)`,
    );
    for (const [search, sort] of [
      ['P-04321', 'recorded_at'],
      ['P-04321', 'participant'],
      ['week-7', 'recorded_at'],
      ['nothing-matches', 'recorded_at'],
    ] as const) {
      lines.push(
        `  search "${search}" by ${sort}`.padEnd(44) +
          `${ms(await time(() => page({ search, sort })))} (${(await page({ search, sort })).total.toLocaleString('en')} rows)`,
      );
    }
    lines.push(
      `  search "P-04321" + needs attention  ${ms(await time(() => page({ search: 'P-04321', filter: 'needs_attention' })))}`,
    );
    return lines;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchRecordings()) console.log(l);
