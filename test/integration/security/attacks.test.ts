/**
 * The security review, replayed as attacks (docs/security.md lists which test proves what):
 *   - a manifest path that points at a key file, /etc/passwd, /proc/self/environ or /dev/zero, and a
 *     folder walk of the whole disk: refused with a sentence that never quotes the file;
 *   - URLs, request lines and WebSocket frames that used to kill the browser-mode host: answered or
 *     closed with the right code, the host still serving; then a bounded fuzz of the bridge;
 *   - an API key over plain http: never sent (loopback excepted);
 *   - files left readable to others by an earlier version: made private on open, and said so;
 *   - the audit log of a study file from before its hash chain is chained by migration 0070 (the rest of
 *     the audit log's defences, on both engines: ./audit-log.test.ts);
 *   - the launch token in download URLs: replaced by one-time tickets, and refused in a URL;
 *   - requests without bounds: 100,000 codes, control characters, fields the contract does not declare.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { migrate } from '../../../main/db/migrate';
import { MIGRATIONS } from '../../../main/db/migrations';
import { openStudyDb } from '../../../main/db/open';
import { appendAuditAlone, verifyAuditChain } from '../../../main/db/repos/audit.repo';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import { listAudioFiles } from '../../../main/import/import-plan';
import { MAX_MANIFEST_BYTES, readManifestText, walkFiles } from '../../../main/import/safe-read';
import { createLogger } from '../../../main/log';
import { createEventBus } from '../../../main/rpc/event-bus';
import { createDownloadTickets, createExportDownloads } from '../../../main/rpc/export-downloads';
import { createRouter, type Handlers } from '../../../main/rpc/router';
import { MAX_MESSAGE_BYTES, startBridge, type Bridge } from '../../../main/rpc/ws-bridge';
import { keyedClient } from '../../../main/services/key-address';
import { openWorkspace } from '../../../main/workspace/workspace';
import { procedures } from '../../../shared/contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import { openTestHost, type TestHost } from '../rpc/test-host';

const KEY = 'sk-live-attack-0123456789abcdef';
const posix = process.platform !== 'win32';

// ---------------------------------------------------------------------------------------------------
describe('reading files never discloses them (imports.preview)', () => {
  let t: TestHost;
  let studyId: number;
  let outside: string;
  beforeAll(async () => {
    t = await openTestHost();
    ({ studyId } = await t.sandboxStudy('Attack'));
    outside = join(t.root, 'outside');
    mkdirSync(outside);
    // A key file that even looks like CSV (a comma on its first line), in the workspace's keys folder.
    writeFileSync(join(t.root, 'home', 'keys', 'profile-999.key'), `${KEY},participant\n`, { mode: 0o600 });
  });
  afterAll(() => t.close());

  const preview = (o: { manifestPath?: string; paths?: string[] }) =>
    t.call('imports.preview', {
      studyId,
      paths: o.paths ?? [],
      ...(o.manifestPath ? { manifestPath: o.manifestPath } : {}),
      timeZone: 'Europe/Berlin',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: false,
    });
  const text = (r: unknown) => JSON.stringify(r);

  it('a manifest path at the workspace key file is refused without a byte of the key', async () => {
    const r = await preview({ manifestPath: join(t.root, 'home', 'keys', 'profile-999.key') });
    expect(text(r)).not.toContain(KEY);
    expect(text(r)).toMatch(/workspace folder/);
  });

  it('a manifest path at the study database is refused as private', async () => {
    const r = await preview({ manifestPath: join(t.root, 'home', 'voicescope.sqlite') });
    expect(text(r)).toMatch(/workspace folder/);
  });

  it.runIf(posix)('/etc/passwd and /proc/self/environ are not echoed', async () => {
    const passwd = await preview({ manifestPath: '/etc/passwd' });
    expect(text(passwd)).not.toMatch(/root:|\/bin\//);
    expect(text(passwd)).toMatch(/not a CSV file|does not exist/);
    process.env['VS_ATTACK_SECRET'] = 'environ-secret-value';
    const environ = await preview({ manifestPath: '/proc/self/environ' });
    expect(text(environ)).not.toContain('environ-secret-value');
    expect(text(environ)).toMatch(/system location/);
  });

  it('a CSV that is no manifest: its header is counted, never quoted', async () => {
    const f = join(outside, 'secrets.csv');
    writeFileSync(f, 'hunter2,correct horse battery,participant\nx,y,z\n');
    const r = await preview({ manifestPath: f });
    expect(text(r)).not.toMatch(/hunter2|correct horse/);
    expect(text(r)).toContain('Columns found: \\"participant\\" and 2 other columns');
  });

  it.runIf(posix)('/dev/zero is refused before anything is read, quickly', async () => {
    const started = Date.now();
    const r = await preview({ manifestPath: '/dev/zero' });
    expect(text(r)).toMatch(/system location/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a file too large for a manifest is refused by its size', async () => {
    const f = join(outside, 'big.csv');
    writeFileSync(f, Buffer.alloc(MAX_MANIFEST_BYTES + 1, 0x2c));
    const r = await readManifestText(f, { privatePaths: [] });
    expect(r).toMatchObject({ ok: false, error: { kind: 'too_large' } });
  });

  it('a walk of the whole disk or the home folder is refused at once with a sentence', async () => {
    const started = Date.now();
    const root = await preview({ paths: ['/'] });
    expect(root).toMatchObject({ ok: false, error: { message: expect.stringContaining('whole drive') } });
    const home = await preview({ paths: [homedir()] });
    expect(home).toMatchObject({ ok: false, error: { message: expect.stringContaining('home folder') } });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a path that does not exist gets a sentence, not ENOENT', async () => {
    const r = await preview({ paths: [join(outside, 'gone')] });
    expect(text(r)).not.toContain('ENOENT');
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining('does not exist') } });
    const m = await preview({ manifestPath: join(outside, 'gone.csv') });
    expect(text(m)).not.toContain('ENOENT');
    expect(text(m)).toContain('does not exist');
  });

  it('walks are bounded, report progress and can be cancelled', async () => {
    const dir = join(outside, 'many');
    mkdirSync(dir);
    for (let i = 0; i < 2500; i++) writeFileSync(join(dir, `f${i}.wav`), '');
    const seen: number[] = [];
    const full = await walkFiles([dir], {
      privatePaths: [],
      keep: () => true,
      onProgress: (n) => seen.push(n),
    });
    expect(full.ok && full.value.files.length).toBe(2500);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const bounded = await walkFiles([dir], { privatePaths: [], keep: () => true, maxEntries: 1000 });
    expect(bounded).toMatchObject({ ok: false, error: { kind: 'too_many' } });
    const ac = new AbortController();
    ac.abort();
    await expect(listAudioFiles([dir], { signal: ac.signal })).rejects.toThrow(/cancelled/);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('every request is bounded and strict (the contract)', () => {
  let t: TestHost;
  let studyId: number;
  beforeAll(async () => {
    t = await openTestHost();
    ({ studyId } = await t.sandboxStudy('Bounds'));
  });
  afterAll(() => t.close());

  /** Calls through the router as untyped input, as a hostile page on the socket would. */
  const raw = (method: string, input: unknown) => t.host.router.handle(method, input, { via: 'websocket' });

  it('100,000 codes in exports.unknownCodes are refused fast, with a short answer', async () => {
    const codes = Array.from({ length: 100_000 }, (_, i) => `P${i}`);
    const started = performance.now();
    const r = await raw('exports.unknownCodes', { studyId, codes });
    const ms = performance.now() - started;
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(JSON.stringify(r).length).toBeLessThan(4000);
    expect(r.ok ? [] : r.error.issues).toContainEqual(expect.objectContaining({ path: 'codes' }));
    expect(ms).toBeLessThan(500);
    // The same question within bounds is answered.
    expect(await raw('exports.unknownCodes', { studyId, codes: codes.slice(0, 3) })).toMatchObject({
      ok: true,
      value: { unknown: ['P0', 'P1', 'P2'] },
    });
  });

  it('control characters in a code, a study name or a batch label are refused; nothing is stored', async () => {
    for (const code of ['P\u000001', 'P\u202e10', 'P\u008501', 'P\u0007'])
      expect(await raw('participants.create', { studyId, code })).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION', issues: [expect.objectContaining({ path: 'code' })] },
      });
    expect(await raw('studies.update', { studyId, name: 'Pilot\u0000' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', issues: [expect.objectContaining({ path: 'name' })] },
    });
    expect(
      await raw('participants.page', { studyId, sort: 'code', dir: 'asc', offset: 0, limit: 10 }),
    ).toMatchObject({ ok: true, value: { total: 0 } });
  });

  it('a field the contract does not declare is refused with VALIDATION naming it, not dropped', async () => {
    const r = await raw('participants.create', { studyId, code: 'P1', accountId: 'x', isAdmin: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(r.ok ? [] : r.error.issues?.map((i) => i.path).sort()).toEqual(['accountId', 'isAdmin']);
    expect(await raw('studies.list', { extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', issues: [{ path: 'extra' }] },
    });
    // Nested objects too: the export request inside exports.run.
    expect(
      await raw('exports.run', {
        exportId: 'abcdefgh-1',
        request: { studyId, timeZone: 'UTC', sql: 'DROP TABLE participants' },
      }),
    ).toMatchObject({ ok: false, error: { code: 'VALIDATION', issues: [{ path: 'request.sql' }] } });
  });
});

// ---------------------------------------------------------------------------------------------------
describe('the browser-mode host never dies from input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-attack-'));
  const bus = createEventBus();
  const errors: string[] = [];
  let bridge: Bridge;
  const handlers = Object.fromEntries(
    Object.keys(procedures).map((m) => [m, () => err(appError('INTERNAL', 'x', 'y'))]),
  ) as unknown as Record<string, unknown>;
  handlers['studies.list'] = () => ok([]);

  beforeAll(async () => {
    mkdirSync(join(dir, 'static'));
    writeFileSync(join(dir, 'static', 'index.html'), '<!doctype html><title>v</title>');
    mkdirSync(join(dir, 'ws', 'exports', 'e1'), { recursive: true });
    writeFileSync(join(dir, 'ws', 'exports', 'e1', 'values.csv'), 'a,b\n1,2\n');
    bridge = await startBridge({
      router: createRouter(handlers as unknown as Handlers, { error: () => {} }),
      bus,
      staticDir: join(dir, 'static'),
      routes: createExportDownloads(join(dir, 'ws')).route,
      onError: (what) => errors.push(what),
    });
  });
  afterAll(async () => {
    await bridge.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends raw bytes and returns the status line (or '' when the connection ended without one). */
  const raw = (bytes: string | Buffer, waitMs = 300) =>
    new Promise<string>((resolve) => {
      const s = net.connect(bridge.port, '127.0.0.1');
      let got = '';
      const done = () => {
        s.destroy();
        resolve(got.split('\r\n')[0] ?? '');
      };
      s.on('error', done);
      s.on('data', (d) => {
        got += d.toString('latin1');
        if (got.includes('\r\n')) done();
      });
      s.on('close', done);
      s.setTimeout(waitMs, done);
      s.write(bytes);
    });
  const host = () => `127.0.0.1:${bridge.port}`;
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: bridge.port, path, headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
  const connect = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://${host()}/rpc?token=${bridge.token}`, {
        headers: { Origin: bridge.origin },
        maxPayload: 64 * 1024 * 1024,
      });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  const closeCode = (ws: WebSocket) => new Promise<number>((r) => ws.on('close', (c) => r(c)));
  const alive = async () => {
    expect((await get('/')).status).toBe(200);
    const ws = await connect();
    const answer = new Promise((r) => ws.on('message', (d) => r(JSON.parse(d.toString()))));
    ws.send(JSON.stringify({ id: 7, method: 'studies.list', input: {} }));
    expect(await answer).toEqual({ id: 7, envelope: { ok: true, value: [] } });
    ws.close();
  };

  it('a bad percent-encoding is a 400 (it killed the host)', async () => {
    expect((await get('/%E0%A4%A')).status).toBe(400);
    expect((await get(`/download/exports/%E0%A4%A.zip?token=${bridge.token}`)).status).toBe(400);
    expect((await get(`/download/exports/e1/%E0%A4%A?token=${bridge.token}`)).status).toBe(400);
    await alive();
  });

  it('an absolute-form request line that is no URL is a 400 (it killed the host)', async () => {
    expect(await raw(`GET http://[ HTTP/1.1\r\nHost: ${host()}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    expect(
      await raw(
        `GET http://[ HTTP/1.1\r\nHost: ${host()}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
      ),
    ).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw('NOT A REQUEST LINE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    await alive();
  });

  it(`a WebSocket message over ${MAX_MESSAGE_BYTES} bytes closes that socket with 1009 (it killed the host)`, async () => {
    const ws = await connect();
    const closed = closeCode(ws);
    ws.send('x'.repeat(MAX_MESSAGE_BYTES + 1));
    expect(await closed).toBe(1009);
    await alive();
  });

  it('a WebSocket text message that is not UTF-8 closes with 1007 (it killed the host)', async () => {
    const ws = await connect();
    const closed = closeCode(ws);
    ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await closed).toBe(1007);
    await alive();
  });

  it('downloads take a one-time ticket minted with the token in a header, never in the URL', async () => {
    const mint = (path: string, auth = `Bearer ${bridge.token}`, origin = bridge.origin) =>
      fetch(`${bridge.origin}/download-ticket`, {
        method: 'POST',
        headers: { Authorization: auth, Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ path }),
      });
    expect((await mint('/download/exports/e1.zip', 'Bearer wrong')).status).toBe(403);
    expect((await mint('/download/exports/e1.zip', undefined, 'https://evil.example')).status).toBe(403);
    expect((await mint('/etc/passwd')).status).toBe(400);
    // The launch token in a download address (what the window used to put in its links) opens nothing.
    expect((await get(`/download/exports/e1/values.csv?token=${bridge.token}`)).status).toBe(403);
    expect((await get(`/download/exports/e1.zip?token=${bridge.token}`)).status).toBe(403);
    const res = await mint('/download/exports/e1/values.csv');
    const { url, ticket } = (await res.json()) as { url: string; ticket: string };
    expect(url).not.toContain(bridge.token);
    expect(await get(url)).toEqual({ status: 200, body: 'a,b\n1,2\n' });
    expect((await get(url)).status).toBe(403); // used up
    const other = bridge.issueDownloadTicket('/download/exports/e1.zip');
    expect((await get(`/download/exports/e1/values.csv?ticket=${other}`)).status).toBe(403); // another path
    expect(ticket).not.toBe(other);
    let clock = 0;
    const tickets = createDownloadTickets({ ttlMs: 1000, now: () => clock });
    const late = tickets.issue('/download/x');
    clock = 1001;
    expect(tickets.redeem(late, '/download/x')).toBe(false);
  });

  it('a bounded fuzz: 5,000+ random request lines, headers, URLs and WebSocket frames; the host answers after', async () => {
    let seed = 0x5eed;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(xs: readonly T[]) => xs[rnd(xs.length)]!;
    const junk = (n: number) => Buffer.from(Array.from({ length: n }, () => rnd(256)));
    const pieces = [
      '/',
      '%',
      '%E0',
      '%A4%A',
      '%00',
      '..',
      '//',
      '?',
      '#',
      '[',
      ']',
      '@',
      ':',
      'http://',
      '\\',
      '%2e%2e',
      'download/',
      'exports/',
      'rpc',
      '.zip',
      '~',
      '\u00e9',
      'token=',
      'ticket=',
      ' ',
    ];
    const url = () => Array.from({ length: 1 + rnd(8) }, () => pick(pieces)).join('');
    const methods = [
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'DELETE',
      'OPTIONS',
      'CONNECT',
      'TRACE',
      'G\u00c9T',
      '',
      'GET GET',
    ];
    const versions = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2', 'HTTP/9.9', '', 'HTTP/1.1 extra'];
    const header = () =>
      pick([
        `Host: ${host()}`,
        'Host: evil.example',
        `Host: ${junk(6).toString('latin1')}`,
        'Content-Length: -1',
        'Content-Length: 99999999999',
        'Transfer-Encoding: chunked',
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Origin: ${bridge.origin}`,
        `Authorization: Bearer ${bridge.token}`,
        `X-Long: ${'a'.repeat(rnd(20_000))}`,
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        junk(10).toString('latin1'),
      ]);
    const httpCase = () => {
      const line = `${pick(methods)} ${rnd(10) === 0 ? `http://${url()}` : url()} ${pick(versions)}`;
      const headers = Array.from({ length: rnd(6) }, header).join('\r\n');
      return Buffer.concat([
        Buffer.from(`${line}\r\n${headers}\r\n\r\n`, 'latin1'),
        rnd(4) === 0 ? junk(rnd(200)) : Buffer.alloc(0),
      ]);
    };
    /** A WebSocket frame from the client side (masked or not, any opcode, lengths that lie). */
    const frame = () => {
      const payload = junk(rnd(300));
      const b0 = (rnd(2) << 7) | (rnd(8) << 4 ? rnd(16) : 1);
      const masked = rnd(5) !== 0;
      const len = rnd(10) === 0 ? 127 : Math.min(payload.length, 125);
      const head = [b0 & 0xff, (masked ? 0x80 : 0) | len];
      const ext = len === 127 ? [0xff, 0xff, 0xff, 0xff, 0, 0, 0, rnd(256)] : [];
      return Buffer.concat([
        Buffer.from(head),
        Buffer.from(ext),
        masked ? junk(4) : Buffer.alloc(0),
        payload.subarray(0, len === 127 ? payload.length : len),
      ]);
    };
    const wsCase = () =>
      new Promise<void>((resolve) => {
        const s = net.connect(bridge.port, '127.0.0.1');
        const finish = () => {
          s.destroy();
          resolve();
        };
        s.on('error', finish);
        s.on('close', finish);
        // Long enough for a loaded machine to answer the upgrade (npm test runs vitest beside the journeys).
        s.setTimeout(3_000, finish);
        let upgraded = false;
        s.on('data', (d) => {
          if (!upgraded && d.toString('latin1').startsWith('HTTP/1.1 101')) {
            upgraded = true;
            upgrades += 1;
            s.write(Buffer.concat(Array.from({ length: 1 + rnd(3) }, frame)));
            setTimeout(finish, 20);
          }
        });
        s.write(
          `GET /rpc?token=${bridge.token} HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${bridge.origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        );
      });
    let upgrades = 0;
    const CASES = 5000;
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < CASES) {
        const i = next++;
        if (i % 4 === 3) await wsCase();
        else await raw(httpCase(), 150);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    expect(next).toBeGreaterThanOrEqual(CASES);
    expect(upgrades).toBeGreaterThan(CASES / 5); // the frames really reached an open WebSocket
    expect(Date.now() - started).toBeLessThan(60_000);
    await alive();
  }, 90_000);
});

describe('a process guard keeps browser mode serving', () => {
  it('an uncaught exception and an unhandled rejection are logged, and the process goes on', () => {
    const script = `
      import { guardProcess } from './main/process-guard.ts';
      guardProcess({ error: (m) => console.log('LOGGED', m) });
      setTimeout(() => { throw new Error('boom'); }, 1);
      setTimeout(() => { void Promise.reject(new Error('nope')); }, 5);
      setTimeout(() => console.log('STILL SERVING'), 50);
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(__dirname, '..', '..', '..'),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.stdout).toContain('LOGGED An unexpected error was caught');
    expect(r.stdout).toContain('LOGGED An unexpected failed promise was caught');
    expect(r.stdout).toContain('STILL SERVING');
    expect(r.status).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('keys travel only over https, loopback excepted', () => {
  it('a client for a plain-http address refuses every keyed call in words, sending nothing', async () => {
    const fetchSpy = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
    const client = keyedClient({
      profile: { baseUrl: 'http://analysis.example.org', version: 'v1.3', apiKey: KEY },
      fetch: fetchSpy as unknown as typeof fetch,
    });
    const usage = await client.getUsage();
    expect(usage).toMatchObject({ ok: false, error: { kind: 'InsecureAddress' } });
    expect((await client.createAccount()).ok).toBe(false);
    expect((await client.getAnalysis('r1')).ok).toBe(false);
    const up = await client.upload({
      accountId: 'a',
      recordedAt: '2026-01-01T00:00:00Z',
      analyses: ['wellbeing'],
      audio: {
        sizeBytes: 10,
        open: async function* () {
          yield new Uint8Array(10);
        },
      },
    });
    expect(up).toMatchObject({ status: 'rejected', attempts: 0, error: { kind: 'InsecureAddress' } });
    const { explainApiError } = await import('../../../shared/api/api-error-explained');
    if (!usage.ok) expect(explainApiError(usage.error).summary).toMatch(/did not send the API key.*https/);
    for (const call of fetchSpy.mock.calls as unknown[][]) expect(JSON.stringify(call)).not.toContain(KEY);
  });
});

// ---------------------------------------------------------------------------------------------------
describe.runIf(posix)('files private whatever existed before', () => {
  it('a workspace made 0755 with a 0644 database, WAL, key and log is narrowed on open, and says so', () => {
    const root = mkdtempSync(join(tmpdir(), 'vs-modes-'));
    const home = join(root, 'home');
    try {
      mkdirSync(join(home, 'keys'), { recursive: true });
      mkdirSync(join(home, 'logs'));
      mkdirSync(join(home, 'archives', 'a1'), { recursive: true });
      writeFileSync(join(home, 'keys', 'profile-1.key'), KEY);
      writeFileSync(join(home, 'logs', 'voicescope.log'), 'old\n');
      writeFileSync(join(home, 'archives', 'a1', 'study.sqlite'), 'x');
      const first = openStudyDb(join(home, 'voicescope.sqlite'));
      first.db.close();
      for (const p of ['', 'keys', 'logs', 'archives', 'archives/a1']) chmodSync(join(home, p), 0o755);
      for (const p of [
        'keys/profile-1.key',
        'logs/voicescope.log',
        'archives/a1/study.sqlite',
        'voicescope.sqlite',
      ])
        chmodSync(join(home, p), 0o644);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const ws = openWorkspace(home);
      const { db } = openStudyDb(ws.dbPath);
      db.prepare('CREATE TABLE IF NOT EXISTS t (x)').run();
      const lines: string[] = [];
      createLogger({ dir: join(home, 'logs'), out: (l) => lines.push(l), err: (l) => lines.push(l) });
      const mode = (p: string) => statSync(join(home, p)).mode & 0o777;
      expect(mode('')).toBe(0o700);
      expect(mode('keys')).toBe(0o700);
      expect(mode('logs')).toBe(0o700);
      expect(mode('archives/a1')).toBe(0o700);
      for (const p of [
        'keys/profile-1.key',
        'logs/voicescope.log',
        'archives/a1/study.sqlite',
        'voicescope.sqlite',
        'voicescope.sqlite-wal',
        'voicescope.sqlite-shm',
      ])
        expect(mode(p), p).toBe(0o600);
      expect(warn.mock.calls.join(' ')).toMatch(/made .* private/);
      expect(lines.join(' ')).toMatch(/made private/);
      warn.mockRestore();
      db.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a new database is created 0600 even under a wide umask', () => {
    const root = mkdtempSync(join(tmpdir(), 'vs-modes-'));
    const old = process.umask(0o022);
    try {
      const { db } = openStudyDb(join(root, 'new.sqlite'));
      db.prepare('CREATE TABLE t (x)').run();
      expect(statSync(join(root, 'new.sqlite')).mode & 0o777).toBe(0o600);
      db.close();
    } finally {
      process.umask(old);
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------------
describe('the audit log of a study file from before the chain', () => {
  const entry = (i: number) => ({
    at: `2026-01-0${i}T00:00:00.000Z`,
    kind: 'export_written' as const,
    studyId: 1,
    detail: { rows: i },
  });

  it('migration 0070 chains the entries written before it', async () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 60);
    for (const i of [1, 2, 3])
      db.prepare(`INSERT INTO audit_log (at, kind, study_id, detail) VALUES (?, 'export_written', 1, ?)`).run(
        `t${i}`,
        `{"rows":${i}}`,
      );
    migrate(db, MIGRATIONS);
    const store = sqliteStore(db);
    expect(await verifyAuditChain(store)).toEqual({ ok: true, entries: 3 });
    await appendAuditAlone(store, entry(4));
    expect(await verifyAuditChain(store)).toEqual({ ok: true, entries: 4 });
  });
});
