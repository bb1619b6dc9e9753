import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb } from '/work/h5/main/db/open';
import { CohortReferences } from '/work/h5/main/services/change-reference';
import { participantTimeline } from '/work/h5/main/services/timeline';
import { seedBigStudy } from '/work/h5/test/bench/export.bench';

const dir = mkdtempSync(join(tmpdir(), 'vs-cohort-'));
const path = join(dir, 's.sqlite');
const n = Number(process.env['N'] ?? 100_000);
let t = performance.now();
seedBigStudy(path, n);
console.log(`seeded ${n} recordings in ${((performance.now() - t) / 1000).toFixed(1)} s`);
const { db } = openStudyDb(path);
for (let i = 0; i < 3; i++) {
  db.prepare(`UPDATE studies SET name = name WHERE id = 1`).run(); // a write: the cache is not used
  t = performance.now();
  const c = CohortReferences.of(db, 1, 3);
  const ms = performance.now() - t;
  console.log(`cohort reference (k = 3): ${ms.toFixed(0)} ms; pd_hnr v1.3: ${JSON.stringify(c.get('pd_hnr', 'v1.3'))}`);
}
for (let i = 0; i < 3; i++) {
  t = performance.now();
  participantTimeline(db, 17);
  console.log(`timeline of one participant incl. cohort: ${(performance.now() - t).toFixed(0)} ms`);
}
db.close();
rmSync(dir, { recursive: true, force: true });
