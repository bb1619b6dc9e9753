/**
 * Service profiles through the router: the connection test before saving (ping, then usage) names a
 * wrong key and a wrong address in plain words; a profile is created with its key kept outside the
 * database; a taken name is a conflict and plain http to another computer a refusal; keys are replaced
 * and removed; the built-in sandbox becomes a profile marked simulated, once per API version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { openTestHost, type TestHost } from './test-host';

let t: TestHost;
let service: Sandbox;

beforeAll(async () => {
  t = await openTestHost();
  service = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await t.close();
  await service.close();
});

describe('profiles', () => {
  it('tests a connection before anything is saved: ping and usage', async () => {
    const ok = await t.must('profiles.testDraft', {
      baseUrl: service.url,
      apiVersion: 'v1.3',
      apiKey: DEMO_API_KEY,
    });
    expect(ok.ping.length).toBeGreaterThan(0);
    expect(ok.usage).toMatchObject({ apiVersion: 'v1.3', detail: { kind: 'credits' } });
    expect(await t.must('profiles.list', {})).toEqual([]);
  });

  it('names a wrong key and an unreachable address, with what to do', async () => {
    const wrongKey = await t.call('profiles.testDraft', {
      baseUrl: service.url,
      apiVersion: 'v1.3',
      apiKey: 'not-the-right-key',
    });
    expect(wrongKey).toMatchObject({
      ok: false,
      error: { code: 'UPSTREAM', apiError: { kind: 'Unauthorized' } },
    });
    if (!wrongKey.ok) expect(wrongKey.error.message).toContain('did not accept the API key');
    const nowhere = await t.call('profiles.testDraft', {
      baseUrl: 'http://127.0.0.1:9',
      apiVersion: 'v1.3',
      apiKey: DEMO_API_KEY,
    });
    expect(nowhere).toMatchObject({
      ok: false,
      error: { code: 'UPSTREAM', retryable: true, apiError: { kind: 'NetworkError' } },
    });
    if (!nowhere.ok) expect(nowhere.error.action).toMatch(/network|address/);
  });

  it('creates a profile whose key is kept outside the database, and says where', async () => {
    const p = await t.must('profiles.create', {
      name: 'Lab',
      baseUrl: `${service.url}/`,
      apiVersion: 'v1.2',
      apiKey: DEMO_API_KEY,
    });
    expect(p).toMatchObject({
      name: 'Lab',
      baseUrl: service.url,
      apiVersion: 'v1.2',
      isSandbox: false,
      hasKey: true,
      studies: 0,
    });
    expect(p.keyLocation).toContain('key file');
    expect(JSON.stringify(await t.store.all(`SELECT * FROM service_profiles`))).not.toContain(DEMO_API_KEY);
    expect((await t.must('profiles.test', { profileId: p.id })).usage.apiVersion).toBe('v1.2');
  });

  it('refuses a taken name as a conflict, and plain http to another computer as a refusal', async () => {
    expect(
      await t.call('profiles.create', {
        name: 'Lab',
        baseUrl: service.url,
        apiVersion: 'v1.3',
        apiKey: DEMO_API_KEY,
      }),
    ).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    const http = await t.call('profiles.create', {
      name: 'Remote',
      baseUrl: 'http://analysis.example.org',
      apiVersion: 'v1.3',
      apiKey: DEMO_API_KEY,
    });
    expect(http).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    if (!http.ok) expect(http.error.message).toContain('https');
  });

  it('replaces and removes a key; without one nothing can be asked', async () => {
    const [lab] = await t.must('profiles.list', {});
    const replaced = await t.must('profiles.replaceKey', { profileId: lab!.id, apiKey: 'another-key-0000' });
    expect(replaced.hasKey).toBe(true);
    expect(await t.call('profiles.test', { profileId: lab!.id })).toMatchObject({
      ok: false,
      error: { apiError: { kind: 'Unauthorized' } },
    });
    const removed = await t.must('profiles.removeKey', { profileId: lab!.id });
    expect(removed).toMatchObject({ hasKey: false, keyLocation: null });
    const r = await t.call('profiles.test', { profileId: lab!.id });
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.error.action).toMatch(/API key/);
  });

  it('the built-in sandbox is one profile per API version, marked simulated', async () => {
    const a = await t.must('profiles.useSandbox', { apiVersion: 'v1.3' });
    const b = await t.must('profiles.useSandbox', { apiVersion: 'v1.3' });
    const c = await t.must('profiles.useSandbox', { apiVersion: 'v1.2' });
    expect(a.id).toBe(b.id);
    expect(c.id).not.toBe(a.id);
    expect([a.isSandbox, c.isSandbox]).toEqual([true, true]);
    expect(a.name).toContain('simulated');
    expect((await t.must('sandbox.state', {})).running).toBe(true);
  });
});
