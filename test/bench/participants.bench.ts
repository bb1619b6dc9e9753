/**
 * The participants table of a large study: 10,000 participants and 100,000 recordings (each with four
 * analysis rows, most completed, some still processing or refused), one page of 100 rows for every
 * sort and filter, as the workstation's virtualised table asks for it while scrolling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANALYSIS_TYPES } from '../../shared/api/vocabulary';
import { openStudyDb, type Db } from '../../main/db/open';
import { participantPage, type ParticipantFilter, type ParticipantSort } from '../../main/db/repos/participants.repo';

export const PARTICIPANTS = 10_000;
export const RECORDINGS = 100_000;
const DAY = 86_400_000;
export const NOW = Date.UTC(2026, 5, 1);

/** Seeds study 1 (interval 7 days). Participant p has recordings only if p % 10 !== 0 (a tenth never recorded). */
export const seedLargeStudy = (db: Db): void => {
  db.prepare(`INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'now')`).run();
  db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'now')`).run();
  const insP = db.prepare(`INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, ?)`);
  db.transaction(() => {
    for (let p = 1; p <= PARTICIPANTS; p++) insP.run(p, `P-${String(p).padStart(5, '0')}`, p % 7 === 0 ? null : `acc-${p}`, new Date(NOW - (PARTICIPANTS - p) * 60_000).toISOString());
  })();
  const recorders = Array.from({ length: PARTICIPANTS }, (_, i) => i + 1).filter((p) => p % 10 !== 0);
  const insR = db.prepare(
    `INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
     VALUES (?, 1, ?, ?, ?, 1000, ?, 'manifest', ?, 'now')`,
  );
  const insA = db.prepare(`INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, ?, ?, 'now')`);
  db.transaction(() => {
    for (let r = 1; r <= RECORDINGS; r++) {
      const p = recorders[(r - 1) % recorders.length]!;
      const state = r % 50 === 0 ? 'refused_locally' : 'uploaded';
      // Sessions a week apart, the last ones spread over the past 60 days so some participants are overdue.
      const session = Math.floor((r - 1) / recorders.length);
      const at = NOW - ((p * 13) % 60) * DAY - (10 - session) * 7 * DAY;
      insR.run(r, p, `/data/${r}.wav`, `h${r}`, new Date(at).toISOString(), state);
      for (const t of ANALYSIS_TYPES) insA.run(r, t, state !== 'uploaded' ? 'awaiting_upload' : r % 9 === 0 ? 'processing' : 'completed');
    }
  })();
};

const SORTS: readonly ParticipantSort[] = ['code', 'recordings', 'last_recording', 'created'];
const FILTERS: readonly ParticipantFilter[] = ['all', 'overdue', 'never', 'no_account', 'needs_attention'];

const time = (fn: () => unknown, n = 20): { p50: number; max: number } => {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); fn(); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b);
  return { p50: xs[Math.floor(n / 2)]!, max: xs.at(-1)! };
};

export const benchParticipants = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-pbench-'));
  const { db } = openStudyDb(join(dir, 'study.sqlite'));
  try {
    const t0 = performance.now();
    seedLargeStudy(db);
    const lines = [`${PARTICIPANTS.toLocaleString('en')} participants, ${RECORDINGS.toLocaleString('en')} recordings (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s); one page of 100, p50 / max of 20 runs:`];
    const page = (sort: ParticipantSort, filter: ParticipantFilter, offset = 0, search?: string) =>
      participantPage(db, { studyId: 1, sort, dir: 'desc', filter, offset, limit: 100, ...(search ? { search } : {}) }, NOW);
    for (const sort of SORTS) {
      const first = time(() => page(sort, 'all'));
      const deep = time(() => page(sort, 'all', 9_000));
      lines.push(`  sort ${sort.padEnd(14)} first page ${first.p50.toFixed(1)} / ${first.max.toFixed(1)} ms, page at row 9,000 ${deep.p50.toFixed(1)} / ${deep.max.toFixed(1)} ms`);
    }
    for (const filter of FILTERS) {
      const r = time(() => page('last_recording', filter));
      lines.push(`  filter ${filter.padEnd(16)} ${r.p50.toFixed(1)} / ${r.max.toFixed(1)} ms (${page('last_recording', filter).total.toLocaleString('en')} rows)`);
    }
    const s = time(() => page('code', 'all', 0, 'P-012'));
    lines.push(`  search "P-012"          ${s.p50.toFixed(1)} / ${s.max.toFixed(1)} ms`);
    return lines;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchParticipants()) console.log(l);
