/**
 * An API key reaches a service only over https, or over plain http to this computer by name (127.0.0.1,
 * localhost, [::1]): every request that carries a key follows the one rule (main/services/key-address.ts).
 * Each way a key leaves is tried against a plain-http listener at 127.0.0.2, another address on this
 * machine that is not one of those names, which records everything it receives.
 */
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProfileBaseUrl } from '../../../main/db/repos/profiles.repo';
import { keyMayTravelTo } from '../../../main/services/key-address';
import { makeSmallStudyFolder } from '../../support/small-study-folder';
import { importFolder, openTestHost, type TestHost } from '../rpc/test-host';

const KEY = 'vs-key-address-test-0123456789abcdef';

/** A plain-http server at 127.0.0.2 that answers 200 {} to everything and keeps what it was sent. */
const startRecorder = async () => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push(
        `${req.method} ${req.url} ${JSON.stringify(req.headers)} ${Buffer.concat(chunks).toString()}`,
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"pong"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.2:${port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};

let t: TestHost;
let recorder: Awaited<ReturnType<typeof startRecorder>>;

beforeAll(async () => {
  t = await openTestHost();
  recorder = await startRecorder();
  // The listener is reachable: had the key been sent, it would have been recorded.
  await fetch(`${recorder.url}/reachable`);
  expect(recorder.seen).toHaveLength(1);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await recorder?.close();
});

const keyArrived = () => recorder.seen.some((s) => s.includes(KEY));

/** A profile whose stored address is the listener (a workspace written before the rule, or edited by hand). */
const profileAtListener = async (name: string) => {
  const p = await t.must('profiles.create', {
    name,
    baseUrl: 'https://api.example.org',
    apiVersion: 'v1.3',
    apiKey: KEY,
  });
  await setProfileBaseUrl(t.host.service.store, p.id, recorder.url);
  return p.id;
};

describe('which addresses may receive a key', () => {
  it('https anywhere; plain http only to 127.0.0.1, localhost and [::1]', () => {
    expect(keyMayTravelTo('https://api.example.org')).toBe(true);
    expect(keyMayTravelTo('https://127.0.0.2:4000')).toBe(true);
    expect(keyMayTravelTo('http://127.0.0.1:4000')).toBe(true);
    expect(keyMayTravelTo('http://localhost:4000')).toBe(true);
    expect(keyMayTravelTo('http://[::1]:4000')).toBe(true);
    expect(keyMayTravelTo('http://127.0.0.2:4000')).toBe(false);
    expect(keyMayTravelTo('http://127.1:4000')).toBe(true); // the URL parser writes it 127.0.0.1
    expect(keyMayTravelTo('http://api.localhost:4000')).toBe(false);
    expect(keyMayTravelTo('http://127.0.0.1.evil.example')).toBe(false);
    expect(keyMayTravelTo('http://10.0.0.5')).toBe(false);
    expect(keyMayTravelTo('ftp://api.example.org')).toBe(false);
    expect(keyMayTravelTo('not an address')).toBe(false);
  });
});

describe('no key reaches a plain-http address that is not this computer by name', () => {
  it('profiles.testDraft (the test before saving) refuses the address in words and sends nothing', async () => {
    const r = await t.call('profiles.testDraft', { baseUrl: recorder.url, apiVersion: 'v1.3', apiKey: KEY });
    expect(r).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    if (!r.ok) expect(r.error.message).toMatch(/must use https/);
    expect(keyArrived()).toBe(false);
  });

  it('profiles.create refuses the address', async () => {
    const r = await t.call('profiles.create', {
      name: 'Plain http',
      baseUrl: recorder.url,
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    expect(r).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    expect(keyArrived()).toBe(false);
  });

  it('moving a profile to the address (its update) is refused, and the profile keeps its address', async () => {
    const p = await t.must('profiles.create', {
      name: 'Moved',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: KEY,
    });
    const moved = await t.host.service.setProfileAddress(p.id, recorder.url);
    expect(moved).toMatchObject({ ok: false, error: { message: expect.stringMatching(/must use https/) } });
    expect((await t.host.service.listProfiles()).find((x) => x.id === p.id)?.baseUrl).toBe(
      'https://api.example.org',
    );
  });

  it('profiles.test on a stored profile at the address sends no key', async () => {
    const profileId = await profileAtListener('Stored test');
    const r = await t.call('profiles.test', { profileId });
    expect(r.ok).toBe(false);
    expect(keyArrived()).toBe(false);
  });

  it('usage.read on it sends no key, and says why in words', async () => {
    const profileId = await profileAtListener('Stored usage');
    const r = await t.call('usage.read', { profileId });
    expect(r).toMatchObject({ ok: false, error: { apiError: { kind: 'InsecureAddress' } } });
    if (!r.ok) expect(r.error.message).toMatch(/did not send the API key/);
    expect(keyArrived()).toBe(false);
  });

  it("the engine's requests (a participant's account) send no key, and say why", async () => {
    const profileId = await profileAtListener('Stored engine');
    const study = await t.must('studies.create', { name: 'Plain http study', profileId });
    const folder = makeSmallStudyFolder(join(t.root, 'plain-http'), { seed: 3300 });
    await importFolder(t, study.id, [folder.dir], { manifestPath: folder.manifestPath, convert: false });
    const r = await t.must('participants.createAccounts', { studyId: study.id });
    expect(r.created).toEqual([]);
    expect(r.uncertain).toEqual([]);
    expect(JSON.stringify(r.failed)).toMatch(/did not send the API key/);
    expect(keyArrived()).toBe(false);
  }, 60_000);
});
