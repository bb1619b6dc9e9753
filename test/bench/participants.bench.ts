/**
 * The participants table of a large study (test/support/large-study.ts: 10,000 participants, 100,000
 * recordings): one page of 100 rows for every sort and filter, as the workstation's virtualised table
 * asks for it while scrolling. Run alone: `npx tsx test/bench/participants.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb } from '../../main/db/open';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { timeRunsAsync } from './timing';
import { LARGE_STUDY, seedLargeStudyDb } from '../support/large-study';
import {
  participantPage,
  type ParticipantFilter,
  type ParticipantSort,
} from '../../main/db/repos/participants.repo';

const { participants: PARTICIPANTS, recordings: RECORDINGS, now: NOW } = LARGE_STUDY;

const SORTS: readonly ParticipantSort[] = ['code', 'recordings', 'last_recording', 'created'];
const FILTERS: readonly ParticipantFilter[] = ['all', 'overdue', 'never', 'no_account', 'needs_attention'];

const time = (fn: () => Promise<unknown>) => timeRunsAsync(fn, 20);

export const benchParticipants = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-pbench-'));
  const { db } = openStudyDb(join(dir, 'study.sqlite'));
  const store = sqliteStore(db);
  try {
    const t0 = performance.now();
    seedLargeStudyDb(db);
    const lines = [
      `${PARTICIPANTS.toLocaleString('en')} participants, ${RECORDINGS.toLocaleString('en')} recordings (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s); one page of 100, p50 / max of 20 runs:`,
    ];
    const page = (sort: ParticipantSort, filter: ParticipantFilter, offset = 0, search?: string) =>
      participantPage(
        store,
        { studyId: 1, sort, dir: 'desc', filter, offset, limit: 100, ...(search ? { search } : {}) },
        NOW,
      );
    for (const sort of SORTS) {
      const first = await time(() => page(sort, 'all'));
      const deep = await time(() => page(sort, 'all', 9_000));
      lines.push(
        `  sort ${sort.padEnd(14)} first page ${first.p50.toFixed(1)} / ${first.max.toFixed(1)} ms, page at row 9,000 ${deep.p50.toFixed(1)} / ${deep.max.toFixed(1)} ms`,
      );
    }
    for (const filter of FILTERS) {
      const r = await time(() => page('last_recording', filter));
      lines.push(
        `  filter ${filter.padEnd(16)} ${r.p50.toFixed(1)} / ${r.max.toFixed(1)} ms (${(await page('last_recording', filter)).total.toLocaleString('en')} rows)`,
      );
    }
    const s = await time(() => page('code', 'all', 0, 'P-012'));
    lines.push(`  search "P-012"          ${s.p50.toFixed(1)} / ${s.max.toFixed(1)} ms`);
    return lines;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`)
  for (const l of await benchParticipants()) console.log(l);
