/**
 * How long the visit ledger (visits.csv, completeness, the Design screen) takes on a large study:
 * 1,000 participants, a 12-visit weekly schedule, 12 recordings each (12,000 recordings, one in ten
 * refused). Run: npx tsx test/bench/visit-ledger.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyService } from '../../main/services/study-service';
import { buildVisitLedger } from '../../main/design/visit-ledger';

const root = mkdtempSync(join(tmpdir(), 'vs-ledger-'));
const svc = openStudyService({ workspaceDir: root, now: () => Date.UTC(2026, 5, 1) });
const db = svc.db;
const prof = db
  .prepare(
    `INSERT INTO service_profiles (name, base_url, api_version, created_at) VALUES ('p', 'http://x', 'v1.3', 'now')`,
  )
  .run();
const s = Number(
  db
    .prepare(`INSERT INTO studies (name, profile_id, created_at) VALUES ('S', ?, 'now')`)
    .run(prof.lastInsertRowid).lastInsertRowid,
);
await svc.setVisitSchedule(
  s,
  Array.from({ length: 12 }, (_, i) => ({
    name: `Week ${i}`,
    targetDay: 7 * i,
    windowBefore: 2,
    windowAfter: 2,
  })),
);
const batch = db
  .prepare(`INSERT INTO batches (study_id, created_at, analyses) VALUES (?, 'now', '[]')`)
  .run(s).lastInsertRowid;
db.transaction(() => {
  for (let p = 0; p < 1000; p++) {
    const pid = db
      .prepare(`INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, 'now')`)
      .run(s, `P${p}`).lastInsertRowid;
    for (let w = 0; w < 12; w++) {
      const refused = (p + w) % 10 === 0;
      const id = db
        .prepare(
          `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
        VALUES (?, ?, ?, ?, ?, 1, ?, 'manifest', ?, 'now')`,
        )
        .run(
          s,
          pid,
          batch,
          `/f${p}-${w}.wav`,
          `h${p}-${w}`,
          new Date(Date.UTC(2026, 2, 2) + (7 * w + (p % 3)) * 86_400_000).toISOString(),
          refused ? 'refused_locally' : 'uploaded',
        ).lastInsertRowid;
      if (!refused)
        db.prepare(
          `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, 'wellbeing', 'completed', 'now')`,
        ).run(id);
    }
  }
})();
const times: number[] = [];
let rows = 0;
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const l = (await buildVisitLedger(svc.store, s, Date.UTC(2026, 5, 1)))!;
  times.push(performance.now() - t0);
  rows = l.rows.length;
}
times.sort((a, b) => a - b);
console.log(
  `visit ledger: ${rows} expected visits, 12000 recordings; median ${times[2]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms, max ${times[4]!.toFixed(0)} ms (5 runs)`,
);
void svc.close().then(() => rmSync(root, { recursive: true, force: true }));
