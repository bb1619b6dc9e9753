/**
 * The soak test (`npm run soak`): thousands of uploads and polls through the study engine against the
 * sandbox, under random spells of faults (weather.ts), while the engine process is SIGKILLed at random
 * moments and started again. At the end every recording must be in a final, explainable state, nothing
 * may have been sent twice, no completed result lost or changed, every stored value exactly what the
 * service gives, and the database must pass its engine's integrity checks and hold no row whose parent
 * is missing (soak-checks.ts, database-checks.ts). Prints one summary with the counts and exits 1 on
 * any violation.
 *
 *   npm run soak -- --uploads 2000 --kills 15 --seed 20261123
 *   (or SOAK_UPLOADS, SOAK_KILLS, SOAK_SEED; --distinct / SOAK_DISTINCT audio files, default 20;
 *    --max-minutes / SOAK_MAX_MINUTES, default 12; --keep keeps the work folder;
 *    --engine / SOAK_ENGINE: sqlite, the default, or postgres, a throwaway PostgreSQL 15 server)
 *
 * The same few distinct WAVs (8 kHz mono, 33 s of speech) serve many participants through hard links:
 * duplicates are judged per participant, so each (participant, audio) pair is one recording.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { closeSync, linkSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApiClient } from '../../main/api/client';
import { strandedAnalyses } from '../../main/db/repos/polls.repo';
import { DEMO_API_KEY } from '../../main/sandbox/config';
import { openChosenStudyService } from '../../main/services/open-study-service';
import { makeWav, seededRandom } from '../fixtures/audio';
import { createSandboxStudy, startLabSandbox } from '../support/lab-sandbox';
import { waitForLine } from '../support/spawn';
import {
  finalChecks,
  keptResults,
  resultsMatchService,
  snapshotResults,
  type Check,
  type ResultSnapshot,
} from './soak-checks';
import { integrityChecks, quickCheck } from './database-checks';
import { soakDatabase, SOAK_ENGINES, type SoakEngine } from './soak-engine';
import { calmScenario, scenarioFor, spellDealer, SPELLS, type Spell } from './weather';

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const option = (name: string, env: string, fallback: number): number => {
  const raw = flag(name) ?? process.env[env];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`soak: --${name} must be a whole number (got ${raw})`);
    process.exit(2);
  }
  return n;
};
const UPLOADS = Math.max(1, option('uploads', 'SOAK_UPLOADS', 2_000));
const KILLS = option('kills', 'SOAK_KILLS', 15);
const SEED = option('seed', 'SOAK_SEED', 20_261_123);
const DISTINCT = Math.max(1, Math.min(UPLOADS, option('distinct', 'SOAK_DISTINCT', 20)));
const MAX_MINUTES = option('max-minutes', 'SOAK_MAX_MINUTES', 12);
const KEEP = process.argv.includes('--keep');
const ENGINE_NAME = flag('engine') ?? process.env['SOAK_ENGINE'] ?? 'sqlite';
if (!(SOAK_ENGINES as readonly string[]).includes(ENGINE_NAME)) {
  console.error(`soak: --engine must be one of ${SOAK_ENGINES.join(', ')} (got ${ENGINE_NAME})`);
  process.exit(2);
}
const ANALYSES = ['wellbeing', 'parkinsons', 'alzheimers'] as const;

const random = seededRandom(SEED);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const say = (s: string) => console.log(`soak [${elapsed()}] ${s}`);

const work = mkdtempSync(join(tmpdir(), 'vs-soak-'));
const home = join(work, 'home');
const violations: string[] = [];

/** The engine's tuning: test-speed polling within the spec's 5 s floor, client timeouts short enough for slow spells to bite. */
const TUNING = {
  profileId: 1,
  poll: { firstPollAfterMs: 5_000, intervalMs: 5_000, jitterMs: 0, globalRatePerSecond: 80, globalBurst: 20 },
  queue: { uploadConcurrency: 4, uploadsPerMinute: 100_000 },
  client: {
    readTimeoutMs: 1_500,
    uploadTimeout: { baseMs: 1_500, minBytesPerSecond: 2_000_000 },
    retry: { baseDelayMs: 100, maxDelayMs: 1_000 },
  },
};

const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx/esm')).href;
const ENGINE = join(import.meta.dirname, 'engine-process.ts');
const engineLog = openSync(join(work, 'engine.log'), 'a');
const database = await soakDatabase(ENGINE_NAME as SoakEngine, home, process.env);
process.once('exit', () => database.stop()); // every way out, the watchdog's and a throw's too
const spawnEngine = (): ChildProcess =>
  spawn(process.execPath, ['--import', TSX, ENGINE, home, JSON.stringify(TUNING)], {
    stdio: ['ignore', 'pipe', engineLog],
    env: database.engineEnv,
  });

const sandbox = await startLabSandbox({ credits: 2 * UPLOADS + 100, scenario: calmScenario() });
const watchdog = setTimeout(() => {
  console.error(`soak: not finished after ${MAX_MINUTES} minutes; giving up (work folder kept: ${work})`);
  process.exit(1);
}, MAX_MINUTES * 60_000);
watchdog.unref();

// ── The study: DISTINCT audio files, each given to ⌈UPLOADS / DISTINCT⌉ participants ────────────────
const files = join(work, 'files');
mkdirSync(join(files, 'audio'), { recursive: true });
for (let k = 0; k < DISTINCT; k++) {
  writeFileSync(
    join(files, 'audio', `a${k}.wav`),
    makeWav({ seconds: 36, speechSeconds: 33, sampleRateHz: 8_000, seed: SEED * 7 + k }),
  );
}
const participants = Math.ceil(UPLOADS / DISTINCT);
const rows = ['file,participant,recorded_at'];
for (let i = 0; i < UPLOADS; i++) {
  const p = Math.floor(i / DISTINCT);
  const k = i % DISTINCT;
  const name = `P${String(p).padStart(4, '0')}-a${k}.wav`;
  linkSync(join(files, 'audio', `a${k}.wav`), join(files, name));
  const day = new Date(Date.UTC(2026, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);
  rows.push(`${name},P-${String(p).padStart(4, '0')},${day}T10:00:00Z`);
}
writeFileSync(join(files, 'manifest.csv'), rows.join('\n'));

const opened = await openChosenStudyService({ workspaceDir: home }, database.firstAddress);
if (!opened.ok) throw new Error(opened.error);
const svc = opened.value.service;
const { studyId, profileId } = await createSandboxStudy(svc, sandbox, 'Soak');
const plan = await svc.planImport({
  studyId,
  paths: [],
  manifestPath: join(files, 'manifest.csv'),
  timeZone: 'UTC',
  analyses: [...ANALYSES],
  isolateOldestSpeaker: false,
  convert: false,
});
if (!plan.ok) throw new Error(plan.error.message);
// The same audio under many participants is held as a duplicate: here it is on purpose, so the
// soak insists, as a researcher would, on every file seen under another participant.
const insisted = plan.value.files.filter((f) => f.action === 'duplicate').map((f) => f.path);
if (plan.value.counts.upload + insisted.length !== UPLOADS)
  throw new Error(`the import plans ${JSON.stringify(plan.value.counts)}, not ${UPLOADS} uploads`);
const { batchId } = await svc.commitImport(plan.value, { insistOnDuplicates: insisted });
const accounts = await svc.createAccounts(studyId);
if (!accounts.ok) throw new Error(accounts.error.message);
await svc.pauseSending(profileId); // nothing is sent from this process…
await svc.startBatch(batchId);
await svc.close();
const store = await database.reader();
await store.run(`DELETE FROM settings WHERE key LIKE 'queue_pause:%'`); // …the engine process sends
say(
  `${UPLOADS} recordings imported (${DISTINCT} distinct audio files × ${participants} participants, ${participants} accounts) on ${database.label}; seed ${SEED}`,
);

// ── Weather: a new random spell every 1–4 s ─────────────────────────────────────────────────────────
const spells = Object.fromEntries(SPELLS.map((s) => [s, 0])) as Record<Spell, number>;
let raining = true;
const nextSpell = spellDealer(random);
/** The end-state invariant (polls.repo.ts strandedAnalyses), checked after every kill and at the end. */
const stranded: string[] = [];
const strandedAfter = async (when: string) => {
  const rows = await strandedAnalyses(store);
  if (rows.length)
    stranded.push(
      `after ${when}: ${rows.length} unfinished without a next poll (first: recording ${rows[0]!.recording_id} ${rows[0]!.type} ${rows[0]!.state})`,
    );
};

const weather = (async () => {
  while (raining) {
    const spell = nextSpell();
    spells[spell]++;
    sandbox.setScenario(scenarioFor(spell, Math.floor(random() * 2 ** 31)));
    await new Promise((r) => setTimeout(r, 1_000 + random() * 3_000));
  }
})();

// ── The engine, killed KILLS times at random moments ────────────────────────────────────────────────
/** Kill points: after so many requests have reached the service, spread over the expected run; some kills come right after a start. */
const expectedRequests = 1.8 * UPLOADS;
const killAt = Array.from({ length: KILLS }, () => (0.01 + 0.8 * random()) * expectedRequests).sort(
  (a, b) => a - b,
);
const requests = () => sandbox.requestLog().length;
const count = async (sql: string) => Number((await store.get<{ n: number }>(sql))!.n);
let kills = 0;
let earlyKills = 0;
let runs = 0;
let snapshot: ResultSnapshot = await snapshotResults(store);
for (;;) {
  const child = spawnEngine();
  runs++;
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const idle = waitForLine(child, 'idle').then(
    () => true,
    () => false,
  );
  try {
    await waitForLine(child, 'ready');
  } catch {
    violations.push(`the engine did not start (run ${runs}); see ${join(work, 'engine.log')}`);
    if (runs > KILLS + 5) break;
    continue;
  }
  let kill = false;
  if (kills < KILLS) {
    const early = random() < 0.2;
    const due = killAt[kills]!;
    const deadline = early ? performance.now() + 50 + random() * 600 : Infinity;
    let done = false;
    void exited.then(() => {
      done = true;
    });
    while (!done && performance.now() < deadline && (early || requests() < due))
      await new Promise((r) => setTimeout(r, 10));
    if (!done) {
      kill = true;
      if (early) earlyKills++;
      child.kill('SIGKILL');
    }
  }
  const code = await exited;
  if (kill) {
    kills++;
    const now = await snapshotResults(store);
    const lost = keptResults(snapshot, now);
    if (lost.length) violations.push(`after kill ${kills}: ${lost.slice(0, 5).join('; ')}`);
    snapshot = now;
    const quick = await quickCheck(store);
    if (quick.length)
      violations.push(`after kill ${kills}: the quick check says ${quick.slice(0, 5).join('; ')}`);
    await strandedAfter(`kill ${kills}`);
    const uploaded = await count(`SELECT count(*) AS n FROM recordings WHERE upload_state = 'uploaded'`);
    const uncertain = await count(
      `SELECT count(*) AS n FROM recordings WHERE upload_state = 'upload_uncertain'`,
    );
    say(
      `kill ${kills}/${KILLS} after ${requests()} requests: uploaded ${uploaded}, uncertain ${uncertain}, analyses final ${now.finals.size}`,
    );
    continue;
  }
  if (code === 0 && (await idle)) break;
  violations.push(
    `the engine process ended by itself with code ${code} (run ${runs}); see ${join(work, 'engine.log')}`,
  );
  if (runs > KILLS + 5) break;
}
closeSync(engineLog);
raining = false;
await weather;
sandbox.setScenario(calmScenario());
const log = sandbox.requestLog();
const lost = keptResults(snapshot, await snapshotResults(store));
if (lost.length) violations.push(`after the last run: ${lost.slice(0, 5).join('; ')}`);

await strandedAfter('the last run');

// ── Checks and summary ──────────────────────────────────────────────────────────────────────────────
const checks: Check[] = [
  { name: 'no analysis was ever unfinished without a next poll time', violations: stranded },
  {
    name: `the engine was killed ${KILLS} times and always restarted cleanly`,
    violations: [
      ...violations,
      ...(kills < KILLS ? [`only ${kills} of ${KILLS} kills happened before the work was done`] : []),
    ],
  },
  ...(await finalChecks(store, sandbox, UPLOADS, ANALYSES.length)),
  ...(await integrityChecks(store)),
];
const verify = await resultsMatchService(
  store,
  createApiClient({ profile: { baseUrl: sandbox.url, version: 'v1.3', apiKey: DEMO_API_KEY } }),
);
checks.push(verify.check);

const tally = <T>(xs: readonly T[], key: (x: T) => string | null) => {
  const m = new Map<string, number>();
  for (const x of xs) {
    const k = key(x);
    if (k !== null) m.set(k, (m.get(k) ?? 0) + 1);
  }
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
};
const outcomeOf = (r: (typeof log)[number]) =>
  r.fault ?? (r.status === null ? 'no answer (client gone)' : `HTTP ${r.status}`);
const uploadsLog = log.filter((r) => r.endpoint === 'upload');
const pollsLog = log.filter((r) => r.endpoint === 'getAnalysis');
const states = await store.all<{ s: string; n: number }>(
  `SELECT upload_state AS s, count(*) AS n FROM recordings GROUP BY upload_state ORDER BY n DESC`,
);
const analysisStates = await store.all<{ s: string; n: number }>(
  `SELECT state AS s, count(*) AS n FROM analyses GROUP BY state ORDER BY n DESC`,
);
const uncertainWhy = tally(
  await store.all<{ e: string }>(
    `SELECT upload_error AS e FROM recordings WHERE upload_state = 'upload_uncertain'`,
  ),
  (r) => {
    const reason = String((JSON.parse(r.e) as { reason?: string }).reason ?? '');
    if (/stopped while/.test(reason)) return 'interrupted by a kill';
    if (/in time/.test(reason)) return 'no answer in time';
    if (/connection broke/.test(reason)) return 'connection broke';
    if (/HTTP 5/.test(reason)) return 'server error';
    if (/unreadable|did not say/.test(reason)) return 'unreadable answer';
    return reason.slice(0, 40);
  },
);
const held = sandbox.listRecordings();
const knownIds = new Set(
  (
    await store.all<{ id: string }>(
      `SELECT recording_id AS id FROM recordings WHERE recording_id IS NOT NULL`,
    )
  ).map((r) => r.id),
);
const uncertainCharged = held.filter((h) => !knownIds.has(h.id)).length;
const failed = checks.filter((c) => c.violations.length > 0);

console.log('');
console.log(`soak summary (seed ${SEED}, ${database.label}, ${elapsed()} in all)`);
console.log(
  `  recordings: ${UPLOADS} (${DISTINCT} distinct audio files × ${participants} participants), ${ANALYSES.length} analyses each`,
);
console.log(`  uploads sent: ${uploadsLog.length} (${tally(uploadsLog, outcomeOf)})`);
console.log(`  polls: ${pollsLog.length} (${tally(pollsLog, outcomeOf)})`);
const processingErrors = await count(`SELECT count(*) AS n FROM analyses WHERE state = 'error'`);
console.log(
  `  faults by kind: ${tally(log, (r) => r.fault ?? (r.status === 429 ? 'rate_limited_429' : null)) || 'none'}; processing errors (analyses ended in error) ${processingErrors}`,
);
console.log(
  `  weather spells: ${tally(
    SPELLS.flatMap((s) => Array<Spell>(spells[s]).fill(s)),
    (s) => s,
  )}`,
);
console.log(`  kills: ${kills} of ${KILLS} (${earlyKills} right after a start), engine runs: ${runs}`);
console.log(
  `  final states: ${states.map((s) => `${s.s} ${s.n}`).join(', ')}; analyses: ${analysisStates.map((s) => `${s.s} ${s.n}`).join(', ')}`,
);
console.log(
  `  uncertain uploads, why: ${uncertainWhy || 'none'}; the service holds ${held.length} recordings, ${uncertainCharged} of them charged for uploads held as uncertain`,
);
console.log(`  results compared with the service afterwards: ${verify.compared} recordings`);
for (const c of checks) {
  console.log(`  ${c.violations.length ? 'FAIL' : 'ok  '} ${c.name}`);
  for (const v of c.violations) console.log(`         ${v}`);
}
console.log(`soak: ${checks.length - failed.length} passed, ${failed.length} failed`);

await store.close();
await sandbox.close();
clearTimeout(watchdog);
if (failed.length === 0 && !KEEP) rmSync(work, { recursive: true, force: true });
else console.log(`work folder kept: ${work}`);
process.exit(failed.length === 0 ? 0 : 1);
