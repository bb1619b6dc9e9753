/**
 * The recordings table of a large study: 100,000 recordings of 10,000 participants in 10 batches, each
 * with two analysis rows, in the mix of states a real study has (mostly completed; some processing,
 * timed out or failed; refused, rejected, uncertain, duplicates, queued). One page of 100 rows, as the
 * virtualised table asks for it, for every sort both ways (first page and a page deep in the table),
 * every filter, a batch, a participant and searches. Run alone: `npx tsx test/bench/recordings.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb, type Db } from '../../main/db/open';
import { recordingPage, type RecordingFilter, type RecordingQuery, type RecordingSort } from '../../main/db/repos/recordings-view.repo';

export const RECORDINGS = 100_000;
export const PARTICIPANTS = 10_000;
const BATCHES = 10;

/** The upload state and analysis states of recording r: a deterministic mix. */
const stateOf = (r: number): { upload: string; analyses: string | null } => {
  if (r % 97 === 0) return { upload: 'refused_locally', analyses: null };
  if (r % 251 === 0) return { upload: 'rejected', analyses: null };
  if (r % 499 === 0) return { upload: 'upload_uncertain', analyses: null };
  if (r % 211 === 0) return { upload: 'duplicate', analyses: null };
  if (r > RECORDINGS - 300) return { upload: 'queued', analyses: null };
  if (r % 53 === 0) return { upload: 'uploaded', analyses: 'processing' };
  if (r % 401 === 0) return { upload: 'uploaded', analyses: 'timed_out' };
  if (r % 307 === 0) return { upload: 'uploaded', analyses: 'error' };
  return { upload: 'uploaded', analyses: 'completed' };
};

export const seedRecordings = (db: Db): void => {
  db.prepare(`INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'now')`).run();
  db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'now')`).run();
  const insB = db.prepare(`INSERT INTO batches (id, study_id, created_at, analyses, state, label) VALUES (?, 1, 'now', '["wellbeing","parkinsons"]', 'finished', ?)`);
  const insP = db.prepare(`INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, 'now')`);
  db.transaction(() => {
    for (let b = 1; b <= BATCHES; b++) insB.run(b, `Batch ${b}`);
    for (let p = 1; p <= PARTICIPANTS; p++) insP.run(p, `P-${String(p).padStart(5, '0')}`, `acc-${p}`);
  })();
  const insR = db.prepare(
    `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, session_label,
                             upload_state, verdict, upload_error, result_source, api_version, created_at)
     VALUES (?, 1, ?, ?, ?, ?, 1000, ?, 'manifest', ?, ?, '{"status":"accepted","findings":[]}', ?, ?, ?, 'now')`,
  );
  const insA = db.prepare(`INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, ?, ?, 'now')`);
  const t0 = Date.UTC(2025, 0, 6, 9);
  for (let from = 1; from <= RECORDINGS; from += 10_000) {
    db.transaction(() => {
      for (let r = from; r < from + 10_000; r++) {
        const p = ((r * 7919) % PARTICIPANTS) + 1; // participants interleaved, not in id order
        const week = Math.floor((r - 1) / PARTICIPANTS);
        const s = stateOf(r);
        const error = s.upload === 'rejected' ? JSON.stringify({ reason: 'The file can no longer be read.' }) : s.upload === 'upload_uncertain' ? JSON.stringify({ reason: 'No answer.', error: null }) : null;
        insR.run(r, p, Math.ceil(r / (RECORDINGS / BATCHES)), `/data/study/week-${week + 1}/P-${String(p).padStart(5, '0')}_${r}.wav`, `h${r}`,
          new Date(t0 + week * 7 * 86_400_000 + p * 60_000).toISOString(), `week ${week + 1}`, s.upload, error,
          s.upload === 'uploaded' ? 'simulated' : null, s.upload === 'uploaded' ? 'v1.3' : null);
        if (s.analyses) for (const t of ['wellbeing', 'parkinsons']) insA.run(r, t, t === 'wellbeing' && s.analyses !== 'completed' ? 'completed' : s.analyses);
      }
    })();
  }
  // No ANALYZE: the app never runs it, so the bench must not give the planner statistics the app lacks.
};

const SORTS: readonly RecordingSort[] = ['recorded_at', 'participant', 'file', 'state', 'id'];
const FILTERS: readonly RecordingFilter[] = ['all', 'needs_attention', 'in_progress', 'completed', 'uncertain', 'refused', 'duplicates'];

const time = (fn: () => unknown, n = 15): { p50: number; max: number } => {
  fn();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); fn(); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b);
  return { p50: xs[Math.floor(n / 2)]!, max: xs.at(-1)! };
};
const ms = (r: { p50: number; max: number }) => `${r.p50.toFixed(1)} / ${r.max.toFixed(1)} ms`;

export const benchRecordings = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-rbench-'));
  const { db } = openStudyDb(join(dir, 'study.sqlite'));
  try {
    const t0 = performance.now();
    seedRecordings(db);
    const lines = [`${RECORDINGS.toLocaleString('en')} recordings, ${PARTICIPANTS.toLocaleString('en')} participants, ${BATCHES} batches (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s); recordings.page, 100 rows, p50 / max of 15 runs:`];
    const page = (q: Partial<RecordingQuery>) => recordingPage(db, { studyId: 1, sort: 'recorded_at', dir: 'desc', offset: 0, limit: 100, ...q });
    for (const sort of SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const first = time(() => page({ sort, dir }));
        const deep = time(() => page({ sort, dir, offset: 50_000 }));
        lines.push(`  sort ${sort.padEnd(11)} ${dir.padEnd(4)} first page ${ms(first)}, page at row 50,000 ${ms(deep)}`);
      }
    }
    for (const filter of FILTERS) {
      const r = time(() => page({ filter }));
      const n = page({ filter }).total;
      const deep = n > 5_000 ? `, page at row ${Math.floor(n / 2).toLocaleString('en')} ${ms(time(() => page({ filter, offset: Math.floor(n / 2) })))}` : '';
      lines.push(`  filter ${filter.padEnd(16)} ${ms(r)} (${n.toLocaleString('en')} rows)${deep}`);
    }
    lines.push(`  batch 4, by file name       ${ms(time(() => page({ batchId: 4, sort: 'file', dir: 'asc' })))} (${page({ batchId: 4 }).total.toLocaleString('en')} rows)`);
    lines.push(`  batch 4, needs attention    ${ms(time(() => page({ batchId: 4, filter: 'needs_attention' })))}`);
    lines.push(`  one participant             ${ms(time(() => page({ participantId: 4321 })))} (${page({ participantId: 4321 }).total} rows)`);
    for (const [search, sort] of [['P-04321', 'recorded_at'], ['P-04321', 'participant'], ['week-7', 'recorded_at'], ['nothing-matches', 'recorded_at']] as const) {
      lines.push(`  search "${search}" by ${sort}`.padEnd(44) + `${ms(time(() => page({ search, sort })))} (${page({ search, sort }).total.toLocaleString('en')} rows)`);
    }
    lines.push(`  search "P-04321" + needs attention  ${ms(time(() => page({ search: 'P-04321', filter: 'needs_attention' })))}`);
    return lines;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchRecordings()) console.log(l);
