/** Where the host's time for a 200-session participant's timeline goes (`npx tsx test/bench/timeline-host.probe.ts`). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb } from '../../main/db/open';
import { openWorkspace } from '../../main/workspace/workspace';
import { participantTimeline } from '../../main/change/timeline';
import { TimelineSchema } from '../../shared/contract/timeline.contract';
import { seedCohortStudy } from '../support/cohort-study';
import { sqliteStore } from '../../main/db/store/sqlite-store';

const home = mkdtempSync(join(tmpdir(), 'vs-timeline-probe-'));
try {
  const { participants } = seedCohortStudy(home, {
    participants: 0,
    sessions: 0,
    longSessions: 200,
    now: Date.UTC(2026, 5, 1),
  });
  const pid = participants.get('P-LONG')!;
  const { db } = openStudyDb(openWorkspace(home).dbPath);
  const store = sqliteStore(db);
  const first = (await participantTimeline(store, pid))!;
  const chosen = first.available
    .filter((_, i) => i % 5 === 0)
    .slice(0, 8)
    .map((a) => a.key);
  const time = async (what: string, f: () => Promise<unknown>) => {
    const xs: number[] = [];
    let out: unknown;
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      out = await f();
      xs.push(performance.now() - t);
    }
    xs.sort((a, b) => a - b);
    console.log(`${what}: median ${xs[3]!.toFixed(1)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`);
    return out;
  };
  const t8 = await time(`timeline of 8 measures`, () => participantTimeline(store, pid, undefined, chosen));
  console.log(`  JSON ${JSON.stringify(t8).length} bytes`);
  await time(`  JSON.stringify`, async () => JSON.stringify(t8));
  await time(`  zod parse of the answer`, async () => TimelineSchema.parse(t8));
  const all = await time(`timeline of every measure`, () => participantTimeline(store, pid));
  console.log(`  JSON ${JSON.stringify(all).length} bytes`);
  db.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
