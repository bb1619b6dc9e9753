/**
 * Issue 30's speed measures, this tree beside an older checkout (BEFORE_DIR) in the same run, and on a
 * throwaway PostgreSQL 15 server: the participant timeline at 100,000 recordings, the export of 100,000
 * recordings (long + wide + summary), the import commit of 1,000 files and the scheduler with 10,000
 * pending recordings. Each measurement runs in a process of its own (store-ab-probe.ts) on the tree's
 * own code; the trees alternate within each round (before/after, then after/before), REPEAT rounds
 * (default 3), and the medians are compared. The older tree needs node_modules (a symlink to this one's:
 *   git worktree add /work/wt/before574 574baed && ln -s $PWD/node_modules /work/wt/before574/).
 * Run: `BEFORE_DIR=/work/wt/before574 npx tsx test/bench/store-ab.ts [timeline export import scheduler]`;
 * VS_AB_PG=0 leaves PostgreSQL out; VS_AB_WAVS=<dir> keeps the import's 1,000 WAV files there for the next run.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeWav } from '../fixtures/audio';
import { hasTool } from '../support/reference-tools';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';

const ROOT = join(import.meta.dirname, '..', '..');
const BEFORE = process.env['BEFORE_DIR'] ?? '/work/wt/before574';
const REPEAT = Number(process.env['REPEAT'] ?? 3);
const MEASURES = ['timeline', 'export', 'import', 'scheduler'] as const;
type Measure = (typeof MEASURES)[number];
type Variant = 'before' | 'after' | 'pg';
type Figures = Record<string, number>;

const PROBE = join(import.meta.dirname, 'store-ab-probe.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;

const probe = (args: string[], pgDb?: string, cluster?: PostgresCluster): Promise<Figures> =>
  new Promise((resolve, reject) => {
    const pg = cluster && {
      host: cluster.host,
      port: cluster.port,
      user: cluster.user,
      password: cluster.password,
      database: pgDb,
      max: 4,
    };
    const c = spawn(process.execPath, ['--import', TSX, PROBE, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...(pg ? { VS_AB_PG: JSON.stringify(pg) } : {}) },
    });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`probe ${args.join(' ')} exited with ${code}`));
      else resolve(JSON.parse(line.slice(7)) as Figures);
    });
  });

const selected: Measure[] = process.argv.slice(2).length
  ? MEASURES.filter((m) => process.argv.slice(2).includes(m))
  : [...MEASURES];
const withPg = process.env['VS_AB_PG'] !== '0' && hasTool('postgresql-15');
const dir = mkdtempSync(join(tmpdir(), 'vs-storeab-'));
let wavScratch: string | undefined;
const scratchWavs = (): string => (wavScratch = mkdtempSync(join(tmpdir(), 'vs-storeab-wav-')));
const trees = { before: BEFORE, after: ROOT };
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const CopiedTables = {
  big: 'service_profiles,studies,batches,participants,recordings,analyses,measure_values',
  pending: 'service_profiles,studies,participants,batches,recordings,analyses',
};

let cluster: PostgresCluster | undefined;
let pgDbs = 0;
/** A new database owned by the study's login: empty, or a copy of `template`. */
const newPgDb = (name = `run${++pgDbs}`, template?: string): string => {
  cluster!.superuser(`CREATE DATABASE ${name} OWNER voicescope${template ? ` TEMPLATE ${template}` : ''}`);
  return name;
};

const results: Record<Measure, Record<Variant, Figures[]>> = Object.fromEntries(
  MEASURES.map((m) => [m, { before: [], after: [], pg: [] }]),
) as never;

try {
  log(`load average ${load()}; before: ${BEFORE}; after: ${ROOT}; ${REPEAT} rounds; PostgreSQL ${withPg}`);
  const needsBig = selected.includes('timeline') || selected.includes('export');
  for (const [name, root] of Object.entries(trees)) {
    if (needsBig) await probe(['seed-big', root, join(dir, `${name}-big.sqlite`)]);
    if (selected.includes('scheduler'))
      await probe(['seed-pending', root, join(dir, `${name}-pending.sqlite`)]);
  }
  // Outside `dir`: the import refuses to read inside the folder of the study database it writes.
  const wavs = process.env['VS_AB_WAVS'] ?? join(scratchWavs(), 'wav');
  if (selected.includes('import') && !(existsSync(wavs) && readdirSync(wavs).length === 1_000)) {
    mkdirSync(wavs, { recursive: true });
    for (let i = 0; i < 1_000; i++)
      writeFileSync(
        join(wavs, `P${String(i % 50).padStart(3, '0')}_s${i}.wav`),
        makeWav({ seconds: 40 + (i % 7), speechSeconds: 34, seed: i + 1 }),
      );
  }
  log('seeded the SQLite studies');
  if (withPg) {
    cluster = await startPostgresCluster();
    if (needsBig) {
      const r = await probe(
        ['pg-load', join(dir, 'after-big.sqlite'), CopiedTables.big],
        newPgDb('big'),
        cluster,
      );
      log(`PostgreSQL: big study loaded (${r['rows']} rows in ${r['seconds']?.toFixed(0)} s)`);
    }
    if (selected.includes('scheduler'))
      await probe(
        ['pg-load', join(dir, 'after-pending.sqlite'), CopiedTables.pending],
        newPgDb('pending'),
        cluster,
      );
  }

  const once = async (m: Measure, v: Variant, round: number): Promise<Figures> => {
    const root = v === 'pg' ? ROOT : trees[v];
    /** The older tree's repositories and services take the better-sqlite3 handle, this one's a store. */
    const sqlite = v === 'before' ? 'handle' : 'sqlite';
    const file = (kind: string) => {
      const f = join(dir, `${v}-${kind}-${round}.sqlite`);
      copyFileSync(join(dir, `${v}-${kind}.sqlite`), f);
      return f;
    };
    const out = join(dir, 'out');
    mkdirSync(out, { recursive: true });
    if (m === 'timeline')
      return v === 'pg'
        ? probe(['timeline', root, 'pg'], 'big', cluster)
        : probe(['timeline', root, sqlite, join(dir, `${v}-big.sqlite`)]);
    if (m === 'export') {
      const r =
        v === 'pg'
          ? await probe(['export', root, 'pg', out], 'big', cluster)
          : await probe(['export', root, sqlite, join(dir, `${v}-big.sqlite`), out]);
      rmSync(out, { recursive: true, force: true });
      return r;
    }
    if (m === 'import')
      return v === 'pg'
        ? probe(['import', root, 'pg', wavs], newPgDb(), cluster)
        : probe(['import', root, sqlite, wavs, join(dir, `${v}-import-${round}.sqlite`)]);
    return v === 'pg'
      ? probe(['scheduler', root, 'pg'], newPgDb(undefined, 'pending'), cluster)
      : probe(['scheduler', root, sqlite, file('pending')]);
  };

  for (let round = 0; round < REPEAT; round++) {
    const order: Variant[] = round % 2 ? ['after', 'before'] : ['before', 'after'];
    if (withPg) order.push('pg');
    for (const m of selected)
      for (const v of order) {
        const r = await once(m, v, round);
        results[m][v].push(r);
        log(`round ${round + 1} ${m} ${v}: ${JSON.stringify(r)} (load ${load()})`);
      }
  }

  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows: [Measure, string, string][] = [
    ['timeline', 'p50Ms', 'participant timeline, p50 (ms)'],
    ['timeline', 'cpuMsPerCall', 'participant timeline, CPU per call (ms)'],
    ['export', 'seconds', 'export of 100,000 recordings (s)'],
    ['export', 'cpuSeconds', 'export of 100,000 recordings, CPU (s)'],
    ['export', 'peakMb', 'export of 100,000 recordings, peak RSS (MB)'],
    ['import', 'ms', 'import commit of 1,000 files (ms)'],
    ['import', 'cpuMs', 'import commit of 1,000 files, CPU (ms)'],
    ['scheduler', 'cpuMs', 'scheduler, 10,000 pending, CPU (ms)'],
    ['scheduler', 'polls', 'scheduler, 10,000 pending, polls sent'],
  ];
  console.log(`\nmedians of ${REPEAT} runs each; load average at the end ${load()}`);
  console.log('| measure | before | after (SQLite) | after/before | PostgreSQL | PG/SQLite |');
  console.log('|---|---|---|---|---|---|');
  for (const [m, key, label] of rows) {
    if (!selected.includes(m)) continue;
    const med = (v: Variant) => (results[m][v].length ? median(results[m][v].map((r) => r[key]!)) : NaN);
    const [b, a, p] = [med('before'), med('after'), med('pg')];
    const fmt = (x: number) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(2) : x.toFixed(0));
    console.log(
      `| ${label} | ${fmt(b)} | ${fmt(a)} | ${(a / b).toFixed(2)}x | ${fmt(p)} | ${withPg ? `${(p / a).toFixed(2)}x` : '-'} |`,
    );
  }
} finally {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
  if (wavScratch) rmSync(wavScratch, { recursive: true, force: true });
}
