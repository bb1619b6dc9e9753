/**
 * What the soak test holds the engine to, as named checks over the study database (read through a
 * store, on either engine) and the sandbox's own records: each returns its violations (empty when it
 * holds), so the summary can say which passed. The database's own integrity: database-checks.ts.
 */
import type { ApiClient } from '../../main/api/client';
import type { Queryable } from '../../main/db/store/types';
import type { Sandbox } from '../../main/sandbox/server';

export interface Check {
  readonly name: string;
  readonly violations: readonly string[];
}

const FINAL_ANALYSIS = new Set(['completed', 'error', 'not_requested']);

/** Completed and failed analyses and their measure values: what must never be lost or changed once stored. */
export interface ResultSnapshot {
  readonly finals: ReadonlyMap<string, string>;
  readonly values: ReadonlyMap<string, number | string>;
}

interface MeasureRow {
  r: number;
  k: string;
  n: number | null;
  t: string | null;
}
const MEASURES = `SELECT recording_id AS r, measure_key AS k, value_num AS n, value_text AS t FROM measure_values`;

export const snapshotResults = async (q: Queryable): Promise<ResultSnapshot> => ({
  finals: new Map(
    (
      await q.all<{ r: number; t: string; s: string }>(
        `SELECT recording_id AS r, type AS t, state AS s FROM analyses WHERE state IN ('completed', 'error')`,
      )
    ).map((x) => [`${x.r}/${x.t}`, x.s]),
  ),
  values: new Map((await q.all<MeasureRow>(MEASURES)).map((x) => [`${x.r}/${x.k}`, x.n ?? x.t!])),
});

/** Everything final in `before` is still there, unchanged, in `after`. */
export const keptResults = (before: ResultSnapshot, after: ResultSnapshot): string[] => {
  const out: string[] = [];
  for (const [k, v] of before.finals)
    if (after.finals.get(k) !== v) out.push(`analysis ${k} was ${v}, now ${after.finals.get(k) ?? 'gone'}`);
  for (const [k, v] of before.values)
    if (after.values.get(k) !== v) out.push(`measure ${k} was ${v}, now ${after.values.get(k) ?? 'gone'}`);
  return out;
};

const limit = (xs: string[], n = 10) =>
  xs.length > n ? [...xs.slice(0, n), `… and ${xs.length - n} more`] : xs;

interface RecRow {
  id: number;
  upload_state: string;
  upload_attempts: number;
  upload_error: string | null;
  recording_id: string | null;
  content_sha256: string;
  account_id: string;
}

const reasonOf = (json: string | null): string => {
  if (!json) return '';
  try {
    const d = JSON.parse(json) as { reason?: unknown; kind?: unknown; error?: { kind?: unknown } | null };
    return typeof d.reason === 'string' ? d.reason : typeof d.kind === 'string' ? d.kind : '';
  } catch {
    return '';
  }
};

/** The checks on the final state, after the last engine run went idle. */
export const finalChecks = async (
  q: Queryable,
  sandbox: Sandbox,
  expectedRecordings: number,
  analysesPerRecording: number,
): Promise<Check[]> => {
  const recs = await q.all<RecRow>(
    `SELECT r.id, r.upload_state, r.upload_attempts, r.upload_error, r.recording_id, r.content_sha256, p.account_id
       FROM recordings r JOIN participants p ON p.id = r.participant_id`,
  );
  const analyses = new Map<number, string[]>();
  for (const a of await q.all<{ r: number; s: string }>(
    `SELECT recording_id AS r, state AS s FROM analyses`,
  )) {
    analyses.set(a.r, [...(analyses.get(a.r) ?? []), a.s]);
  }
  const held = sandbox.listRecordings();
  const heldIds = new Set(held.map((h) => h.id));
  const checks: Check[] = [];
  const check = (name: string, violations: string[]) => checks.push({ name, violations: limit(violations) });

  check(
    `all ${expectedRecordings} recordings imported`,
    recs.length === expectedRecordings ? [] : [`${recs.length} recordings in the study`],
  );
  check(
    'no upload sent twice (upload_attempts ≤ 1; nothing re-queued by the researcher)',
    recs.filter((r) => r.upload_attempts > 1).map((r) => `recording ${r.id}: ${r.upload_attempts} attempts`),
  );
  const pairs = new Map<string, number>();
  for (const h of held)
    pairs.set(`${h.accountId}:${h.audioSha256}`, (pairs.get(`${h.accountId}:${h.audioSha256}`) ?? 0) + 1);
  check(
    'the service holds no (account, audio) twice',
    [...pairs].filter(([, n]) => n > 1).map(([k, n]) => `${k} held ${n} times`),
  );
  check(
    'every recording is in a final state (uploaded, rejected or upload_uncertain)',
    recs
      .filter((r) => !['uploaded', 'rejected', 'upload_uncertain'].includes(r.upload_state))
      .map((r) => `recording ${r.id} is ${r.upload_state}`),
  );
  check(
    `every uploaded recording has its ${analysesPerRecording} analyses final`,
    recs
      .filter((r) => r.upload_state === 'uploaded')
      .flatMap((r) => {
        const states = analyses.get(r.id) ?? [];
        return states.length === analysesPerRecording && states.every((s) => FINAL_ANALYSIS.has(s))
          ? []
          : [`recording ${r.id}: ${states.join(', ') || 'no analyses'}`];
      }),
  );
  check(
    'every uploaded recording is held by the service under its id',
    recs
      .filter((r) => r.upload_state === 'uploaded' && !(r.recording_id && heldIds.has(r.recording_id)))
      .map((r) => `recording ${r.id} (${r.recording_id ?? 'no id'})`),
  );
  check(
    'every rejected or uncertain upload says why',
    recs
      .filter(
        (r) =>
          (r.upload_state === 'rejected' || r.upload_state === 'upload_uncertain') &&
          reasonOf(r.upload_error).length < 5,
      )
      .map((r) => `recording ${r.id} (${r.upload_state}): ${r.upload_error ?? 'no reason'}`),
  );
  const local = new Map<string, RecRow>();
  for (const r of recs) local.set(`${r.account_id}:${r.content_sha256}`, r);
  check(
    'every recording the service charged is accounted for (uploaded with that id, or held as uncertain)',
    held.flatMap((h) => {
      const r = local.get(`${h.accountId}:${h.audioSha256}`);
      if (r && r.upload_state === 'uploaded' && r.recording_id === h.id) return [];
      if (r && r.upload_state === 'upload_uncertain') return [];
      return [
        `service recording ${h.id}: local ${r ? `${r.id} is ${r.upload_state} (${r.recording_id ?? 'no id'})` : 'unknown'}`,
      ];
    }),
  );
  return checks;
};

/**
 * Every stored result equals what the service says now, asked once more without faults: no value
 * from a broken answer, none lost, none changed. Returns the check and how many recordings it compared.
 */
export const resultsMatchService = async (
  q: Queryable,
  client: ApiClient,
): Promise<{ check: Check; compared: number }> => {
  const rows = await q.all<{ id: number; recording_id: string }>(
    `SELECT id, recording_id FROM recordings WHERE upload_state = 'uploaded'`,
  );
  const byRec = new Map<number, Map<string, number | string>>();
  for (const v of await q.all<MeasureRow>(MEASURES)) {
    if (!byRec.has(v.r)) byRec.set(v.r, new Map());
    byRec.get(v.r)!.set(v.k, v.n ?? v.t!);
  }
  const statesOf = (id: number) =>
    q.all<{ type: string; state: string }>(`SELECT type, state FROM analyses WHERE recording_id = ?`, [id]);
  const violations: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      const res = await client.getAnalysis(row.recording_id);
      if (!res.ok) {
        violations.push(`recording ${row.id}: the service did not answer (${res.error.kind})`);
        continue;
      }
      const stored = byRec.get(row.id) ?? new Map<string, number | string>();
      const want = new Map<string, number | string>();
      const states = new Map((await statesOf(row.id)).map((s) => [s.type, s.state]));
      for (const o of res.value.outcomes) {
        if (!states.has(o.type)) continue; // not requested
        if (states.get(o.type) !== o.status)
          violations.push(
            `recording ${row.id} ${o.type}: stored ${states.get(o.type)}, service says ${o.status}`,
          );
        if (o.status === 'completed') for (const [k, v] of Object.entries(o.values)) want.set(k, v);
      }
      for (const [k, v] of want)
        if (stored.get(k) !== v)
          violations.push(
            `recording ${row.id} ${k}: stored ${stored.get(k) ?? 'nothing'}, service says ${v}`,
          );
      for (const k of stored.keys())
        if (!want.has(k))
          violations.push(`recording ${row.id} ${k}: stored, but the service gives no such value`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return {
    check: {
      name: 'every stored result is exactly what the service gives (asked again without faults)',
      violations: limit(violations),
    },
    compared: rows.length,
  };
};
