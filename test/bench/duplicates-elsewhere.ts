/**
 * The cross-participant and cross-study duplicate lookup at import over 100,000 recordings in
 * two studies: time per lookup and the query plan (it must use recordings_by_content, migration 0120).
 * Run on its own: npx tsx test/bench/duplicates-elsewhere.ts
 */
import Database from 'better-sqlite3';
import { migrate } from '../../main/db/migrate';
import { MIGRATIONS } from '../../main/db/migrations';
import { findSameContentElsewhere } from '../../main/db/repos/duplicates.repo';
import { sqliteStore } from '../../main/db/store/sqlite-store';
const db = new Database(':memory:');
migrate(db, MIGRATIONS);
db.exec(`INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1,'L','https://x','v1.3','now');
INSERT INTO studies (id, name, profile_id, created_at) VALUES (1,'A',1,'now'),(2,'B',1,'now');`);
const insP = db.prepare(`INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, 'now')`);
const insR = db.prepare(
  `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, created_at) VALUES (?, ?, ?, ?, 1, '2026-01-01T00:00:00.000Z', 'manifest', 'now')`,
);
const t0 = performance.now();
db.transaction(() => {
  for (let p = 1; p <= 10000; p++) {
    const sid = p <= 5000 ? 1 : 2;
    const pid = Number(insP.run(sid, `P-${p}`).lastInsertRowid);
    for (let k = 0; k < 10; k++) insR.run(sid, pid, `/f/${p}-${k}.wav`, `h${(p * 10 + k) % 99991}`);
  }
})();
console.log('seeded 100000 recordings in', Math.round(performance.now() - t0), 'ms');
const store = sqliteStore(db);
let hits = 0;
const t1 = performance.now();
for (let i = 0; i < 10000; i++) hits += (await findSameContentElsewhere(store, `h${i * 7}`, 1, i + 1)).length;
const ms = performance.now() - t1;
console.log(`10000 lookups: ${ms.toFixed(0)} ms (${((ms / 10000) * 1000).toFixed(1)} µs each), ${hits} hits`);
const plan = db
  .prepare(
    `EXPLAIN QUERY PLAN SELECT r.id FROM recordings r JOIN participants p ON p.id = r.participant_id JOIN studies s ON s.id = r.study_id WHERE r.content_sha256 = ? AND r.participant_id IS NOT ? AND r.upload_state NOT IN ('cancelled', 'refused_locally') ORDER BY r.study_id <> ?, r.id LIMIT 5`,
  )
  .all('h1', 1, 1);
console.log(plan.map((x) => (x as { detail: string }).detail).join(' | '));
