/**
 * A reference check of the change statistics: a small simulated study (weekly sessions, participants
 * with 1 to 9 sessions, a baseline with almost no spread, v1.2 and v1.3 results, refused files, a study
 * reliability for one indicator and one score, k = 3) is exported, and pandas recomputes every figure of
 * participant_summary.csv from measures_long.csv and recordings.csv alone, by the rule as docs/change.md
 * states it: baseline only with k sessions, change only after it, SD floored by the cohort's pooled
 * within-person SD, RCI = change / (√2 · SD₁ · √(1 − r)), |RCI| ≥ 1.96 reliable, least-squares trend per
 * week. Every figure must agree within 1e-9 (relative to its size, at least 1).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { analysisTypesFor, type ApiVersion } from '../../../shared/api/vocabulary';
import { reliabilityOf } from '../../../shared/reliability';
import { openStudyDb } from '../../../main/db/open';
import { setStudyReliability } from '../../../main/db/repos/change.repo';
import { mustExport, tempDir } from './helpers';

const PYTHON = '/usr/bin/python3';
const HAS_PANDAS = spawnSync(PYTHON, ['-c', 'import pandas'], { encoding: 'utf8' }).status === 0;
if (!HAS_PANDAS)
  console.warn(
    `\n!!!!! SKIPPING the change-statistics reference check: pandas for ${PYTHON} is not installed !!!!!\n`,
  );

const tmp = tempDir('vs-change-ref-');
const dbPath = join(tmp.dir, 'study.sqlite');
const STUDY_R = new Map([
  ['pd_hnr', 0.7],
  ['pd_risk_score', 0.8],
]);

/** A small deterministic generator (mulberry32). */
const rng = (seed: number) => () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

beforeAll(() => {
  const { db } = openStudyDb(dbPath);
  const rand = rng(15);
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, is_sandbox, created_at) VALUES (1, 'sandbox', 'http://127.0.0.1:1', 'v1.3', 1, '2024-01-01T00:00:00.000Z')`,
  ).run();
  db.prepare(
    `INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Change', 1, '2024-01-01T00:00:00.000Z')`,
  ).run();
  db.prepare(
    `INSERT INTO batches (id, study_id, created_at, analyses, isolate_oldest_speaker, state) VALUES (1, 1, '2024-01-01T00:00:00.000Z', '[]', 0, 'finished')`,
  ).run();
  const insP = db.prepare(
    `INSERT INTO participants (study_id, code, created_at) VALUES (1, ?, '2024-01-01T00:00:00.000Z')`,
  );
  const insR = db.prepare(
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state,
       recording_id, api_version, result_source, uploaded_at, created_at)
     VALUES (1, @pid, 1, @path, @sha, 1000, @at, 'manifest', @state, @rid, @version, 'simulated', @uploaded, '2024-01-01T00:00:00.000Z')`,
  );
  const insA = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, ?, 'completed', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
  );
  const insV = db.prepare(
    `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  let n = 0;
  db.transaction(() => {
    for (let p = 1; p <= 14; p++) {
      const code = `P-${String(p).padStart(2, '0')}`;
      const pid = Number(insP.run(code).lastInsertRowid);
      const sessions = 1 + ((p * 5) % 9); // 1 to 9 sessions
      const level = 10 + 20 * rand();
      for (let i = 0; i < sessions; i++) {
        n++;
        // Weekly, with a whole number of seconds of jitter; every 7th file refused locally (not uploaded).
        const at = new Date(
          Date.UTC(2024, 0, 1) + i * 7 * 86_400_000 + Math.floor(rand() * 36_000) * 1000,
        ).toISOString();
        const refused = n % 7 === 0;
        const version: ApiVersion = p % 5 === 0 && i >= 4 ? 'v1.2' : 'v1.3';
        const id = Number(
          insR.run({
            pid,
            path: `/x/${code}-${i}.wav`,
            sha: n.toString(16).padStart(64, '0'),
            at,
            state: refused ? 'refused_locally' : 'uploaded',
            rid: refused ? null : `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
            version: refused ? null : version,
            uploaded: refused ? null : at,
          }).lastInsertRowid,
        );
        if (refused) continue;
        for (const type of analysisTypesFor(version)) {
          insA.run(id, type);
          for (const m of MEASURES) {
            if (m.analysis !== type || m.path[version] === undefined) continue;
            let v: number | string;
            if (m.valueType === 'category') v = m.allowed ? m.allowed[(i + p) % m.allowed.length]! : 'low';
            else if (p === 3 && m.key === 'pd_hnr')
              v = i < 3 ? 17.5 + i * 1e-3 : 12; // almost no spread in the baseline
            else {
              const x = level + (m.key.length % 7) * 3 + rand() * 4 + (i >= 3 ? [0, 30, -25][p % 3]! : 0);
              v = m.valueType === 'integer' ? Math.round(x) : x;
            }
            insV.run(id, m.key, pid, at, typeof v === 'number' ? v : null, typeof v === 'string' ? v : null);
          }
        }
      }
    }
    for (const [measureKey, r] of STUDY_R)
      setStudyReliability(db, 1, { measureKey, r, note: 'test', at: '2024-01-01T00:00:00.000Z' });
  })();
  db.close();
});
afterAll(() => tmp.cleanup());

const PANDAS_CHECK = `
import json, math, sys
import numpy as np, pandas as pd

k = int(sys.argv[1])
rel = json.load(open('reliability.json'))
rec = pd.read_csv('recordings.csv', dtype=str, keep_default_na=False)
long = pd.read_csv('measures_long.csv', dtype=str, keep_default_na=False)
summ = pd.read_csv('participant_summary.csv', dtype=str, keep_default_na=False)

up = rec[rec['upload_state'] == 'uploaded'][['recording', 'api_version']]
v = long[(long['value'] != '')][['recording', 'participant', 'recorded_at_utc', 'measure', 'value']]
v = v.merge(up, on='recording')
v['value'] = v['value'].astype(float)
v['recording'] = v['recording'].astype(int)
v['t'] = pd.to_datetime(v['recorded_at_utc'], utc=True)
v = v.sort_values(['participant', 'measure', 'api_version', 't', 'recording'])

def sd(xs):
    return float(np.std(xs, ddof=1)) if len(xs) >= 2 else None

def usable(s, scale):
    return s is not None and math.isfinite(s) and s > 1e-9 * max(1.0, abs(scale))

series = {key: g for key, g in v.groupby(['participant', 'measure', 'api_version'])}
cohort = {}
for (p, m, ver), g in series.items():
    if len(g) >= k:
        cohort.setdefault((m, ver), []).append(g['value'].to_numpy()[:k])
ref = {}
for key, bs in cohort.items():
    allv = np.concatenate(bs)
    if len(bs) >= 2:
        within = sum(float(((b - b.mean()) ** 2).sum()) for b in bs)
        df = sum(len(b) - 1 for b in bs)
        ref[key] = (float(allv.mean()), math.sqrt(within / df) if df > 0 else None, float(np.std(allv, ddof=1)))
    else:
        ref[key] = (float(allv.mean()), None, None)

def expected(p, m, ver, g):
    xs = g['value'].to_numpy()
    n = len(xs)
    weeks = ((g['t'] - g['t'].iloc[0]).dt.total_seconds() * 1000 / (7 * 24 * 3600 * 1000)).to_numpy()
    trend = None
    if n >= 3 and float(((weeks - weeks.mean()) ** 2).sum()) > 0:
        trend = float(((weeks - weeks.mean()) * (xs - xs.mean())).sum() / ((weeks - weeks.mean()) ** 2).sum())
    r = rel.get(m)
    e = dict(n=n, baseline=None, baseline_sd=None, change=None, sd_cohort_within=None, sd_used=None,
             change_in_sd=None, reliability=r, rci_sd=None, s_diff=None, rci=None, trend_per_week=trend,
             verdict=None, reliable_change=None)
    cmean, cwithin, cbase = ref.get((m, ver), (None, None, None))
    e['sd_cohort_within'] = cwithin
    e['rci_sd'] = cbase
    if n < k:
        e['verdict'] = 'no_baseline_yet'
        return e
    b = xs[:k]
    bmean = float(b.mean())
    bsd = sd(b)
    e['baseline'], e['baseline_sd'] = bmean, bsd
    if n <= k:
        e['verdict'] = 'no_session_after_baseline'
        return e
    change = float(xs[-1]) - bmean
    e['change'] = change
    own = bsd if usable(bsd, bmean) else None
    floor = cwithin if usable(cwithin, cmean if cmean is not None else bmean) else None
    used = own if floor is None else floor if own is None else max(own, floor)
    e['sd_used'] = used
    e['change_in_sd'] = None if used is None else change / used
    if r is None:
        e['verdict'] = 'trend_only'
        return e
    if not usable(cbase, cmean if cmean is not None else bmean):
        e['verdict'] = 'no_cohort_sd'
        return e
    sdiff = math.sqrt(2) * cbase * math.sqrt(1 - r)
    e['s_diff'], e['rci'] = sdiff, change / sdiff
    e['reliable_change'] = 'true' if abs(change / sdiff) >= 1.96 else 'false'
    e['verdict'] = ('reliable_increase' if change > 0 else 'reliable_decrease') if abs(change / sdiff) >= 1.96 else 'not_reliable'
    return e

NUM = ['baseline', 'baseline_sd', 'change', 'sd_cohort_within', 'sd_used', 'change_in_sd', 'reliability',
       'rci_sd', 's_diff', 'rci', 'trend_per_week']
bad, compared, counts = [], 0, {}
rows = summ[summ['api_version'] != '']
numeric = set(v['measure'])
seen = set()
for _, row in rows.iterrows():
    key = (row['participant'], row['measure'], row['api_version'])
    if row['change_verdict'] == '':
        continue  # a category
    seen.add(key)
    g = series.get(key)
    if g is None:
        bad.append([list(key), 'no values in the long form'])
        continue
    e = expected(*key, g)
    compared += 1
    counts[e['verdict']] = counts.get(e['verdict'], 0) + 1
    if int(row['n']) != e['n']:
        bad.append([list(key), 'n', row['n'], e['n']])
    if row['change_verdict'] != e['verdict']:
        bad.append([list(key), 'verdict', row['change_verdict'], e['verdict']])
    if (row['reliable_change'] or None) != e['reliable_change']:
        bad.append([list(key), 'reliable_change', row['reliable_change'], e['reliable_change']])
    for c in NUM:
        got = None if row[c] == '' else float(row[c])
        want = e[c]
        if (got is None) != (want is None) or (got is not None and abs(got - want) > 1e-9 * max(1.0, abs(want))):
            bad.append([list(key), c, got, want])
missing = [list(k) for k in series if k not in seen]
print(json.dumps(dict(compared=compared, counts=counts, bad=bad[:20], nbad=len(bad), missing=missing[:5])))
`;

describe('change statistics against a pandas reference computation', () => {
  it.skipIf(!HAS_PANDAS)(
    'agree with pandas on every figure of participant_summary.csv, recomputed from the exported values',
    async () => {
      const folder = join(tmp.dir, 'export');
      await mustExport(dbPath, {}, { outDir: tmp.dir, folderName: 'export' });
      const rel = Object.fromEntries(
        MEASURES.filter((m) => m.valueType !== 'category').flatMap((m) => {
          const r = reliabilityOf(m.key, STUDY_R);
          return r ? [[m.key, r.r]] : [];
        }),
      );
      writeFileSync(join(folder, 'reliability.json'), JSON.stringify(rel));
      writeFileSync(join(folder, 'check.py'), PANDAS_CHECK);
      const r = spawnSync(PYTHON, ['check.py', '3'], {
        cwd: folder,
        encoding: 'utf8',
        env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
      });
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as {
        compared: number;
        counts: Record<string, number>;
        bad: unknown[];
        nbad: number;
        missing: unknown[];
      };
      expect(out.bad).toEqual([]);
      expect(out.missing).toEqual([]);
      expect(out.compared).toBeGreaterThan(200);
      // The study exercises every verdict the rule can give.
      for (const v of [
        'no_baseline_yet',
        'no_session_after_baseline',
        'not_reliable',
        'reliable_increase',
        'reliable_decrease',
        'trend_only',
      ])
        expect(out.counts[v] ?? 0, v).toBeGreaterThan(0);
      console.log(
        `change reference check: ${out.compared} series compared; verdicts ${JSON.stringify(out.counts)}`,
      );
    },
    120_000,
  );
});
