/**
 * The leak test: a whole run in browser mode against a real service (a sandbox started here, with an
 * organisation whose API key is distinctive, behind a proxy that records every byte sent), with
 * distinctive participant codes in file names under a folder named after a person. The key is entered
 * in the window; the study is imported, uploaded, analysed, viewed and exported. Then:
 *   - the API key is nowhere: not in the built app (out/), the host's output, the log files, the study
 *     database (and its WAL), the exports or anything else in the workspace but the key file itself;
 *   - the participant codes are not in the built app nor in any log;
 *   - the service received no file name, folder, person's name or participant code.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import WebSocket from 'ws';
import { startSandbox, type Sandbox } from '../../main/sandbox/server';
import type { CallResult, Input, Method } from '../../shared/contract';
import { makeWav } from '../fixtures/audio';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy';
import { checkA11y, expect, shoot, test, ok } from './support/fixtures';

const ROOT = join(import.meta.dirname, '..', '..');
const KEY = `vs-LEAKCHECK-${randomBytes(10).toString('hex')}`;
const CODES = ['LKQ7-ALPHA-0193', 'LKQ7-BRAVO-0284', 'LKQ7-CHARLIE-0375'];
const PERSON = 'Jane Roe-Winterbottom';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });

/** Which of the needles occur in which files (bytes, so binary files are searched too). */
const grep = (files: readonly string[], needles: readonly string[]) => {
  const hits: string[] = [];
  let bytes = 0;
  for (const f of files) {
    const data = readFileSync(f);
    bytes += data.length;
    for (const n of needles) if (data.includes(Buffer.from(n))) hits.push(`${n} in ${f}`);
  }
  return { hits, files: files.length, bytes };
};

/** The host process from its spawn on (not from its readiness), so afterAll stops it whatever happened. */
let spawned: ChildProcess | null = null;

const startHost = async (home: string) => {
  const out: string[] = [];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', join(ROOT, 'main', 'node-host.ts'), '--home', home, '--no-open'],
    {
      cwd: ROOT,
      env: { ...process.env, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  spawned = child;
  child.stdout!.on('data', (d: Buffer) => out.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => out.push(d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /BRIDGE_READY (\S+)/.exec(out.join(''));
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 50);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`host exited (${code}): ${out.join('')}`));
    });
  });
  return { child, url, out };
};

const rpcOver = (url: string) => {
  const u = new URL(url);
  return async <M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>> => {
    const ws = new WebSocket(`ws://${u.host}/rpc?token=${u.searchParams.get('token')}`, {
      headers: { Origin: u.origin },
    });
    await new Promise((res, rej) => {
      ws.once('open', res);
      ws.once('error', rej);
    });
    const answer = new Promise<CallResult<M>>((res) =>
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as { id?: number; envelope?: CallResult<M> };
        if (m.id === 1) res(m.envelope!);
      }),
    );
    ws.send(JSON.stringify({ id: 1, method, input }));
    const r = await answer;
    ws.close();
    return r;
  };
};

let base: string;
let service: Sandbox;
let proxy: RecordingProxy;
let host: { child: ChildProcess; url: string; out: string[] } | null = null;

test.beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'vs-leak-'));
  service = await startSandbox({
    port: 0,
    config: {
      organisations: [
        {
          id: 'lab',
          name: 'Lab',
          apiKeys: [KEY],
          credits: {
            trial_remaining: 0,
            trial_granted: 0,
            included_remaining: 100,
            included_granted: 100,
            purchased_remaining: 0,
          },
        },
      ],
      scenario: 'fast',
    },
  });
  proxy = await startRecordingProxy(service.url);
  // The desktop app's bundles too (main, preload and renderer), built fresh beside the renderer the tests use.
  execFileSync(
    process.execPath,
    [join(ROOT, 'scripts', 'build.mjs'), '--electron', '--out', join(base, 'out')],
    { stdio: 'pipe' },
  );
});

test.afterAll(async () => {
  // A test that timed out before its host was ready left `host` unset; the spawned process is still known.
  spawned?.kill('SIGKILL');
  await proxy?.close();
  await service?.close();
  rmSync(base, { recursive: true, force: true });
});

test('no API key, participant code or file path leaks from a full run', async ({ browser }) => {
  test.setTimeout(240_000);
  const home = join(base, 'workspace');
  host = await startHost(home);
  const rpc = rpcOver(host.url);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(host.url);

  // The key goes in through the window, as a researcher enters it.
  await page.getByLabel('Service address').fill(proxy.url);
  await page.getByLabel('API key').fill(KEY);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('Connected')).toBeVisible();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByLabel('Study name').fill('Leak check');
  await page.getByRole('button', { name: 'Create study' }).click();
  await expect(page.getByRole('heading', { name: /Leak check/ })).toBeVisible();
  const study = (await ok(rpc('studies.list', {})))[0]!;

  // Recordings named by participant code, in a folder named after a person.
  const dir = join(base, 'Clinic data', PERSON, 'visit 2026-03');
  mkdirSync(dir, { recursive: true });
  const rows = ['file,participant,recorded_at'];
  CODES.forEach((code, p) =>
    [0, 1].forEach((i) => {
      const name = `${code}_${PERSON.replace(/ /g, '_')}_s${i}.wav`;
      writeFileSync(
        join(dir, name),
        makeWav({ seconds: 40, speechSeconds: 35, seed: 31 * p + i, channels: p === 0 && i === 1 ? 2 : 1 }),
      );
      rows.push(`${name},${code},2026-03-0${i + 1}T10:00:00Z`);
    }),
  );
  writeFileSync(join(dir, 'manifest.csv'), `${rows.join('\n')}\n`);

  await ok(
    rpc('settings.save', {
      firstPollSeconds: 5,
      pollIntervalSeconds: 5,
      pollJitterSeconds: 0,
      uploadsPerMinute: 600,
      uploadConcurrency: 4,
      requestsPerSecond: 20,
    }),
  );
  const plan = await ok(
    rpc('imports.preview', {
      studyId: study.id,
      paths: [dir],
      manifestPath: join(dir, 'manifest.csv'),
      timeZone: 'UTC',
      analyses: ['wellbeing', 'parkinsons'],
      isolateOldestSpeaker: false,
      convert: true,
    }),
  );
  expect(plan.counts).toMatchObject({ upload: 5, convert_and_upload: 1 });
  const commit = await ok(
    rpc('imports.commit', { planId: plan.planId, insistOnDuplicates: [], label: 'March' }),
  );
  await ok(rpc('participants.createAccounts', { studyId: study.id }));
  await ok(rpc('batches.start', { batchId: commit.batchId }));
  await expect
    .poll(
      async () =>
        (
          await ok(
            rpc('recordings.page', {
              studyId: study.id,
              filter: 'completed',
              sort: 'id',
              dir: 'asc',
              offset: 0,
              limit: 20,
            }),
          )
        ).total,
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe(6);

  // The researcher looks at the results (codes are meant to be on screen) and exports them.
  await page.evaluate((h) => {
    location.hash = h;
  }, `/studies/${study.id}/participants`);
  await expect(
    page.getByRole('grid', { name: /^Participants/ }).getByRole('row', { name: new RegExp(CODES[0]!) }),
  ).toBeVisible();
  await checkA11y(page, 'participants after the leak-check run');
  await shoot(page, 'no-leaks-participants');
  await ok(
    rpc('exports.run', { exportId: 'leakcheck-export-1', request: { studyId: study.id, timeZone: 'UTC' } }),
  );
  await context.close();

  // Stop the host the way a researcher does, so its last lines are written too.
  host.child.kill('SIGTERM');
  await new Promise((r) => host!.child.once('exit', r));
  const output = host.out.join('');
  writeFileSync(join(base, 'host-output.txt'), output);

  // What the service received: the API key only as the Authorization header, nothing naming a file or a person.
  const sent = proxy.requests;
  expect(sent.filter((r) => r.method === 'POST' && r.path === '/v1.3/recordings')).toHaveLength(6);
  const forbidden = [
    ...CODES,
    PERSON,
    'Jane',
    'Winterbottom',
    'Clinic data',
    'visit 2026-03',
    '.wav',
    'manifest',
    base,
    home,
    ...CODES.map((c) => c.toLowerCase()),
  ];
  for (const r of sent) {
    const body = r.body.toString('latin1');
    const fields = body.replace(/"audio"\s*:\s*"[A-Za-z0-9+/=]*"/, '"audio":"…"');
    const head = JSON.stringify({ path: r.path, headers: { ...r.headers, authorization: undefined } });
    for (const f of forbidden) {
      expect(fields.includes(f), `${f} in the body of ${r.method} ${r.path}`).toBe(false);
      expect(head.includes(f), `${f} in the request line or headers of ${r.method} ${r.path}`).toBe(false);
    }
    expect(r.headers.authorization === undefined || r.headers.authorization === `Bearer ${KEY}`).toBe(true);
    if (r.method === 'POST' && /^\/v1\.[23]\/recordings$/.test(r.path)) {
      expect(Object.keys(JSON.parse(body) as object).sort()).toEqual([
        'account_id',
        'analysis',
        'audio',
        'isolate_oldest_speaker',
        'recorded_at',
      ]);
    }
    if (r.method === 'POST' && r.path.endsWith('/accounts')) expect(r.body.length).toBe(0);
  }

  // The key: nowhere in the built app, the host's output, the logs, the database, the exports, the rest of the workspace.
  const keyFile = join(home, 'keys', readdirSync(join(home, 'keys'))[0]!);
  const built = [...filesUnder(join(ROOT, 'out')), ...filesUnder(join(base, 'out'))];
  const everywhere = [
    ...built,
    join(base, 'host-output.txt'),
    ...filesUnder(home).filter((f) => f !== keyFile),
  ];
  const keyHits = grep(everywhere, [KEY]);
  expect(keyHits.hits).toEqual([]);
  expect(readFileSync(keyFile, 'utf8').trim()).toBe(KEY);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);

  // The codes: nowhere in the built app or any log (the host's output and the workspace's log files).
  const logs = filesUnder(join(home, 'logs'));
  expect(logs.length).toBeGreaterThan(0);
  const codeHits = grep([...built, join(base, 'host-output.txt'), ...logs], CODES);
  expect(codeHits.hits).toEqual([]);
  // The database and the export do hold the codes (they are the study's pseudonyms): the grep can find them.
  expect(
    grep(
      filesUnder(home).filter((f) => relative(home, f).split(sep)[0] === 'exports'),
      [CODES[0]!],
    ).hits.length,
  ).toBeGreaterThan(0);

  const dbFiles = filesUnder(home).filter((f) => /voicescope\.sqlite/.test(f));
  console.log(
    `leak check: key searched in ${keyHits.files} files (${keyHits.bytes} bytes: ${built.length} built files, host output, ${logs.length} log files, ${dbFiles.length} database files, exports and the rest of the workspace), 0 found; ` +
      `codes searched in ${codeHits.files} files (${codeHits.bytes} bytes), 0 found; ${sent.length} requests (${sent.reduce((a, r) => a + r.body.length, 0)} body bytes) sent to the service, no file name, folder, name or code among them.`,
  );
});
