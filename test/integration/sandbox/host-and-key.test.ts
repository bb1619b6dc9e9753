/**
 * The sandbox is safe on a shared computer: it listens on the loopback address only, answers
 * only requests whose Host names it (421 for another name, 400 without one), and the built-in sandbox's
 * API key is random, made once per workspace and kept in the workspace's key store.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { hostRefusal, startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { createBuiltinSandbox, type BuiltinSandbox } from '../../../main/sandbox/builtin-sandbox';
import { createKeyStore } from '../../../main/workspace/key-store';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A raw request with the Host header we choose (or none). */
const request = (port: number, host: string | null): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1.3/ping',
        method: 'GET',
        setHost: false,
        headers: host === null ? {} : { Host: host },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });

describe('the Host header', () => {
  let sb: Sandbox;
  const start = async () => {
    sb = await startSandbox({ port: 0 });
    cleanup.push(() => sb.close());
  };

  it('is accepted as 127.0.0.1:<port> or localhost:<port>', async () => {
    await start();
    expect((await request(sb.port, `127.0.0.1:${sb.port}`)).status).toBe(200);
    expect((await request(sb.port, `LOCALHOST:${sb.port}`)).status).toBe(200);
  });

  it('naming another host (a rebound name, another port) is refused with 421 and the Error shape', async () => {
    await start();
    for (const host of ['evil.example', `evil.example:${sb.port}`, `127.0.0.1:${sb.port + 1}`, '127.0.0.1']) {
      const r = await request(sb.port, host);
      expect(r.status, host).toBe(421);
      expect(JSON.parse(r.body)).toEqual({
        error: { type: 'MisdirectedRequest', message: expect.any(String) },
      });
    }
  });

  it('absent is refused with 400', async () => {
    await start();
    expect(hostRefusal(undefined, 4010)?.status).toBe(400);
    const r = await request(sb.port, null);
    expect(r.status).toBe(400);
  });

  it('is checked on the admin routes too', async () => {
    await start();
    expect((await request(sb.port, 'evil.example')).status).toBe(421);
    expect(hostRefusal('evil.example', sb.port)?.status).toBe(421);
  });
});

describe('the built-in sandbox', () => {
  const workspace = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vs-builtin-'));
    const keysDir = join(dir, 'keys');
    mkdirSync(keysDir, { mode: 0o700 });
    const { db } = openStudyDb(join(dir, 'study.db'));
    cleanup.push(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return { dir, keysDir, db, keys: createKeyStore({ keysDir }) };
  };
  const open = async (w: ReturnType<typeof workspace>): Promise<BuiltinSandbox> => {
    const b = await createBuiltinSandbox(sqliteStore(w.db), w.dir, { keys: w.keys, scenario: 'fast' });
    cleanup.push(() => b.close());
    return b;
  };

  it('listens on the loopback address only', async () => {
    const b = await open(workspace());
    expect(await b.ensure()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('uses a random key, made once per workspace, kept in its key store (0600), never the demo key', async () => {
    const w = workspace();
    const first = await open(w);
    expect(first.apiKey).not.toBe(DEMO_API_KEY);
    expect(first.apiKey.length).toBeGreaterThanOrEqual(40);
    await first.close();
    expect((await open(w)).apiKey).toBe(first.apiKey);
    const file = join(w.keysDir, 'profile-builtin-sandbox.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(w.keys.load('key-file:builtin-sandbox')).toEqual({ ok: true, value: first.apiKey });
    expect((await open(workspace())).apiKey).not.toBe(first.apiKey);
  });

  it('opens with its own key only (an earlier state file with the fixed demo key is taken over)', async () => {
    const b = await open(workspace());
    const url = await b.ensure();
    const usage = (key: string) =>
      fetch(`${url}/v1.3/usage/recordings`, { headers: { Authorization: `Bearer ${key}` } }).then(
        (r) => r.status,
      );
    expect(await usage(b.apiKey)).toBe(200);
    expect(await usage(DEMO_API_KEY)).toBe(401);
  });

  it('keeps the researcher\'s misbehaviours across launches, and "loose" switches them all on', async () => {
    const w = workspace();
    const b = await open(w);
    await b.ensure();
    expect((await b.setMisbehaviours(['skewed_clock', 'nulls'])).misbehaviours).toEqual([
      'skewed_clock',
      'nulls',
    ]);
    await b.close();
    const again = await open(w);
    await again.ensure();
    expect(again.state().misbehaviours).toEqual(['skewed_clock', 'nulls']);
    expect((await again.setScenario('loose')).misbehaviours).toHaveLength(11);
  });
});
