/**
 * The sandbox's endpoints outside upload and analysis, in both versions: ping, account creation,
 * usage, routing (404, 405), authentication (401) and organisation access (403 Suspended,
 * ApiNotProvisioned), every answer in the version's wire shape and marked simulated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, type ApiVersion } from '../../../shared/api/vocabulary';
import { Ping } from '../../../shared/api/wire-common';
import { WIRE } from '../../../shared/api/wire';
import {
  call,
  createAccount,
  expectErrorShape,
  goodWav,
  KEYS,
  parseWire,
  startTestSandbox,
  upload,
  type TestSandbox,
} from './helpers';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.sb.close();
});

describe.each(API_VERSIONS)('%s', (version: ApiVersion) => {
  it('GET /ping answers 200 { message } without a key, marked simulated', async () => {
    const a = await call(t.sb, version, '/ping');
    expect(a.status).toBe(200);
    expect(parseWire(Ping, a).message).toMatch(/simulated/);
    expect(a.headers.get('x-voicescope-simulated')).toBe('1');
    expect(a.headers.get('content-type')).toBe('application/json');
  });

  it('GET /ping ignores an Authorization header, even a wrong one', async () => {
    expect((await call(t.sb, version, '/ping', { key: 'not-a-key-at-all' })).status).toBe(200);
  });

  it('POST /accounts creates a speaker account (no body, and an empty JSON object)', async () => {
    const bare = await call(t.sb, version, '/accounts', { method: 'POST', key: KEYS.active });
    expect(bare.status).toBe(200);
    const acc = parseWire(WIRE[version].account, bare);
    expect(acc.organisation_role).toBe('speaker');
    expect(acc.account_id).toMatch(/^[0-9a-f-]{36}$/);
    const withBody = await call(t.sb, version, '/accounts', {
      method: 'POST',
      key: KEYS.active,
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(withBody.status).toBe(200);
    expect(parseWire(WIRE[version].account, withBody).account_id).not.toBe(acc.account_id);
  });

  it('POST /accounts with malformed JSON is 400 InvalidRequest', async () => {
    const a = await call(t.sb, version, '/accounts', {
      method: 'POST',
      key: KEYS.active,
      body: '{"oops',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(a.status).toBe(400);
    expect(expectErrorShape(a, version).type).toBe('InvalidRequest');
    const arr = await call(t.sb, version, '/accounts', {
      method: 'POST',
      key: KEYS.active,
      body: '[]',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(arr.status).toBe(400);
    // The spec gives account creation no 413: an oversized body is a bad request.
    const huge = await call(t.sb, version, '/accounts', {
      method: 'POST',
      key: KEYS.active,
      body: JSON.stringify({ padding: 'x'.repeat(100_000) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(huge.status).toBe(400);
    expect(expectErrorShape(huge, version).type).toBe('InvalidRequest');
  });

  it('POST /accounts creates no account for suspended organisations (403 Suspended)', async () => {
    const a = await call(t.sb, version, '/accounts', { method: 'POST', key: KEYS.suspended });
    expect(a.status).toBe(403);
    expect(expectErrorShape(a, version).type).toBe('Suspended');
  });

  it('POST /accounts works for an organisation whose API billing is not provisioned', async () => {
    expect(
      (await call(t.sb, version, '/accounts', { method: 'POST', key: KEYS.notProvisioned })).status,
    ).toBe(200);
  });

  it.each([
    ['GET', '/usage/recordings'],
    ['POST', '/accounts'],
    ['POST', '/recordings'],
    ['GET', '/recordings/3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f/analysis'],
  ])('%s %s: 401 without a key, with an unknown key, and with a non-Bearer scheme', async (method, path) => {
    for (const headers of [
      {},
      { Authorization: 'Bearer vs-no-such-key-123' },
      { Authorization: `Basic ${KEYS.active}` },
    ]) {
      const a = await call(t.sb, version, path, { method, headers });
      expect(a.status).toBe(401);
      expect(expectErrorShape(a, version).type).toBe('Unauthorized');
    }
  });

  it.each([
    ['GET', '/usage/recordings'],
    ['POST', '/accounts'],
    ['POST', '/recordings'],
    ['GET', '/recordings/3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f/analysis'],
  ])('%s %s: 403 Suspended for a suspended organisation', async (method, path) => {
    const a = await call(t.sb, version, path, {
      method,
      key: KEYS.suspended,
      ...(method === 'POST' ? { body: '{}', headers: { 'Content-Type': 'application/json' } } : {}),
    });
    expect(a.status).toBe(403);
    expect(expectErrorShape(a, version).type).toBe('Suspended');
  });

  it("GET /usage/recordings answers the version's usage shape", async () => {
    const a = await call(t.sb, version, '/usage/recordings', { key: KEYS.active });
    expect(a.status).toBe(200);
    const u = parseWire(WIRE[version].usage, a);
    if (version === 'v1.3')
      expect(u).toMatchObject({ trial_granted: 10, included_granted: 100, tier: 'sandbox' });
    else expect(u).toMatchObject({ limit: 110 });
  });

  it('unknown paths are 404 and wrong methods 405, with the Error shape', async () => {
    for (const path of ['/nope', '/recordings/abc', '/usage', '/ping/', '/']) {
      const a = await call(t.sb, version, path, { key: KEYS.active });
      expect(a.status, path).toBe(404);
      expect(expectErrorShape(a, version).type).toBe('NotFound');
    }
    for (const [method, path, allow] of [
      ['POST', '/ping', 'GET'],
      ['GET', '/accounts', 'POST'],
      ['DELETE', '/recordings', 'POST'],
      ['PUT', '/usage/recordings', 'GET'],
    ] as const) {
      const a = await call(t.sb, version, path, { method, key: KEYS.active });
      expect(a.status, `${method} ${path}`).toBe(405);
      expect(a.headers.get('allow')).toBe(allow);
      expect(expectErrorShape(a, version).type).toBe('MethodNotAllowed');
    }
  });
});

describe('differences between the versions', () => {
  it('an unknown version is 404 with the Error shape', async () => {
    for (const v of ['v1.1', 'v2', 'latest']) {
      const a = await call(t.sb, v, '/ping');
      expect(a.status).toBe(404);
      expect(expectErrorShape(a, 'v1.3').message).toMatch(/v1\.3 or v1\.2/);
    }
  });

  it('ApiNotProvisioned: 403 on v1.3 upload and usage only; v1.2 usage and upload, and v1.3 analysis retrieval, work', async () => {
    const usage13 = await call(t.sb, 'v1.3', '/usage/recordings', { key: KEYS.notProvisioned });
    expect(usage13.status).toBe(403);
    expect(expectErrorShape(usage13, 'v1.3').type).toBe('ApiNotProvisioned');
    const account = await createAccount(t.sb, 'v1.3', KEYS.notProvisioned);
    const up13 = await upload(t.sb, 'v1.3', KEYS.notProvisioned, goodWav(), { account_id: account });
    expect(up13.status).toBe(403);
    expect(expectErrorShape(up13, 'v1.3').type).toBe('ApiNotProvisioned');

    expect((await call(t.sb, 'v1.2', '/usage/recordings', { key: KEYS.notProvisioned })).status).toBe(200);
    const up12 = await upload(t.sb, 'v1.2', KEYS.notProvisioned, goodWav(), { account_id: account });
    expect(up12.status).toBe(200);
    const id = (up12.json as { recording_id: string }).recording_id;
    expect(
      (await call(t.sb, 'v1.3', `/recordings/${id}/analysis`, { key: KEYS.notProvisioned })).status,
    ).toBe(200);
  });
});
