/**
 * The sandbox's state file (persistence across restarts, atomic writes, refusal of a corrupt file),
 * its admin routes (token required) and its request log (never keys, never audio).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WIRE } from '../../../shared/api/wire';
import { startSandbox } from '../../../main/sandbox/server';
import {
  admin,
  call,
  createAccount,
  expectErrorShape,
  fakeClock,
  goodWav,
  KEYS,
  parseWire,
  startTestSandbox,
  testConfig,
  upload,
} from './helpers';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'voicescope-sandbox-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('state file', () => {
  it("keeps organisations' credits, accounts and recordings across a restart", async () => {
    const file = join(tempDir(), 'state.json');
    const clock = fakeClock();
    const first = await startSandbox({ port: 0, config: testConfig(), stateFile: file, now: clock.now });
    const account = await createAccount(first, 'v1.3');
    const up = await upload(first, 'v1.3', KEYS.active, goodWav(), {
      account_id: account,
      analysis: ['wellbeing'],
    });
    expect(up.status).toBe(200);
    const id = (up.json as { recording_id: string }).recording_id;
    const usageBefore = (await call(first, 'v1.3', '/usage/recordings', { key: KEYS.active })).json;
    await first.close();
    expect(readdirSync(join(file, '..')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const onDisk = readFileSync(file, 'utf8');
    expect(onDisk).not.toContain(Buffer.from(goodWav()).toString('base64').slice(0, 200));

    clock.advance(60_000);
    const second = await startSandbox({ port: 0, config: testConfig(), stateFile: file, now: clock.now });
    try {
      expect((await call(second, 'v1.3', '/usage/recordings', { key: KEYS.active })).json).toEqual(
        usageBefore,
      );
      const a = await call(second, 'v1.2', `/recordings/${id}/analysis`, { key: KEYS.active });
      expect(a.status).toBe(200);
      expect(parseWire(WIRE['v1.2'].analysis, a).analysis.wellbeing?.status).toBe('completed');
      // The account survived: it can upload again.
      expect((await upload(second, 'v1.3', KEYS.active, goodWav(), { account_id: account })).status).toBe(
        200,
      );
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a corrupt state file, saying which file and what to do', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '{"format":"voicescope-sandbox-state","version":1,"organisations":[');
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(
      /state\.json cannot be read.*delete it/s,
    );
    writeFileSync(file, JSON.stringify({ something: 'else' }));
    await expect(startSandbox({ port: 0, stateFile: file })).rejects.toThrow(/cannot be read/);
  });
});

describe('admin routes', () => {
  it('need the X-Sandbox-Admin token', async () => {
    const { sb } = await startTestSandbox();
    try {
      for (const [method, path] of [
        ['GET', '/organisations'],
        ['GET', '/requests'],
        ['POST', '/reset'],
        ['PUT', '/scenario'],
        ['GET', '/organisations/demo'],
      ] as const) {
        expect((await admin(sb, method, path, undefined, null)).status, `${method} ${path}`).toBe(401);
        expect((await admin(sb, method, path, undefined, 'wrong-token')).status).toBe(401);
      }
      const a = await admin(sb, 'GET', '/organisations', undefined, null);
      expect(expectErrorShape(a, 'v1.3').type).toBe('Unauthorized');
    } finally {
      await sb.close();
    }
  });

  it('read and change organisations, the scenario, the log; reset', async () => {
    const { sb } = await startTestSandbox({ adminToken: 'test-admin-token' });
    try {
      expect(sb.adminToken).toBe('test-admin-token');
      const list = await admin(sb, 'GET', '/organisations');
      expect(list.status).toBe(200);
      expect((list.json as { id: string }[]).map((o) => o.id)).toContain('demo');

      const put = await admin(sb, 'PUT', '/organisations/fresh', {
        name: 'Fresh',
        apiKeys: ['vs-test-fresh-key'],
        access: 'suspended',
      });
      expect(put.status).toBe(200);
      expect(put.json).toMatchObject({ id: 'fresh', access: 'suspended', credits: { trial_granted: 10 } });
      expect((await call(sb, 'v1.3', '/usage/recordings', { key: 'vs-test-fresh-key' })).status).toBe(403);
      expect(
        (await admin(sb, 'PUT', '/organisations/fresh', { name: 'Fresh', apiKeys: ['vs-test-fresh-key'] }))
          .status,
      ).toBe(200);
      expect((await call(sb, 'v1.3', '/usage/recordings', { key: 'vs-test-fresh-key' })).status).toBe(200);
      expect(sb.getOrganisation('fresh')?.access).toBe('active');
      // A key cannot belong to two organisations; a body id must match the path.
      expect(
        (await admin(sb, 'PUT', '/organisations/thief', { name: 'Thief', apiKeys: [KEYS.active] })).status,
      ).toBe(400);
      expect((await admin(sb, 'PUT', '/organisations/x', { id: 'y', name: 'Y', apiKeys: [] })).status).toBe(
        400,
      );
      expect((await admin(sb, 'PUT', '/organisations/bad', { name: 'Bad', apiKeys: ['short'] })).status).toBe(
        400,
      );
      expect((await admin(sb, 'GET', '/organisations/nobody')).status).toBe(404);

      const scen = await admin(sb, 'PUT', '/scenario', { preset: 'flaky', seed: 7 });
      expect(scen.status).toBe(200);
      expect(scen.json).toMatchObject({ name: 'flaky', seed: 7 });
      expect(sb.scenario().failureRate.parkinsons).toBeGreaterThan(0);
      expect((await admin(sb, 'PUT', '/scenario', { bogus: 1 })).status).toBe(400);
      expect((await admin(sb, 'GET', '/scenario')).json).toMatchObject({ name: 'flaky' });

      const requests = await admin(sb, 'GET', '/requests');
      expect((requests.json as unknown[]).length).toBeGreaterThan(0);
      expect((await admin(sb, 'DELETE', '/requests')).status).toBe(200);
      expect(sb.requestLog()).toEqual([]);

      expect((await admin(sb, 'POST', '/reset')).status).toBe(200);
      expect(sb.getOrganisation('fresh')).toBeNull();
      expect(sb.scenario().name).toBe('fast');
      expect((await admin(sb, 'GET', '/nothing-here')).status).toBe(404);
      expect((await admin(sb, 'DELETE', '/organisations')).status).toBe(405);
    } finally {
      await sb.close();
    }
  });
});

describe('request log', () => {
  it('records method, path, version, status, endpoint, fault, organisation and time; never keys or audio', async () => {
    const { sb, clock } = await startTestSandbox();
    try {
      const account = await createAccount(sb, 'v1.3');
      const audio = goodWav();
      const up = await upload(sb, 'v1.3', KEYS.active, audio, { account_id: account });
      const id = (up.json as { recording_id: string }).recording_id;
      clock.advance(5_000);
      await call(sb, 'v1.2', `/recordings/${id}/analysis?analysis=wellbeing`, { key: KEYS.active });
      await call(sb, 'v1.3', '/usage/recordings', { key: 'vs-wrong-key-000' });
      await call(sb, 'v9', '/ping');
      const log = sb.requestLog();
      expect(log.map((r) => [r.method, r.path, r.version, r.status, r.endpoint, r.fault, r.orgId])).toEqual([
        ['POST', '/v1.3/accounts', 'v1.3', 200, 'createAccount', null, 'demo'],
        ['POST', '/v1.3/recordings', 'v1.3', 200, 'upload', null, 'demo'],
        ['GET', `/v1.2/recordings/${id}/analysis`, 'v1.2', 200, 'getAnalysis', null, 'demo'],
        ['GET', '/v1.3/usage/recordings', 'v1.3', 401, 'getUsage', null, null],
        ['GET', '/v9/ping', null, 404, null, null, null],
      ]);
      expect(log[2]!.at - log[1]!.at).toBe(5_000);
      const text = JSON.stringify(log) + JSON.stringify((await admin(sb, 'GET', '/requests')).json);
      for (const k of Object.values(KEYS)) expect(text).not.toContain(k);
      expect(text).not.toContain('vs-wrong-key-000');
      expect(text).not.toContain(Buffer.from(audio).toString('base64').slice(0, 40));
      const keys = new Set(log.flatMap((r) => Object.keys(r)));
      expect([...keys].sort()).toEqual([
        'at',
        'endpoint',
        'fault',
        'method',
        'orgId',
        'path',
        'status',
        'version',
      ]);
    } finally {
      await sb.close();
    }
  });
});
