/**
 * The API key goes into the main process and never comes back out to the renderer: no output schema
 * of the contract has a field that could carry it, and no procedure's answer (every one of them, called
 * on a real app host with a service profile whose key is distinctive) contains it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppHost } from '../../../main/app-host';
import { openHost } from '../../support/open-host';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { events, procedures, type Method } from '../../../shared/contract';

const KEY = 'vs-NEVER-OUT-7c21e9a4f0';
const SECRETISH = /api_?key|secret|password|passphrase|token|bearer|authori[sz]ation|credential/i;

/** Every object field name in a zod schema, walking its definition (zod 4 keeps it in `_zod.def`). */
const fieldNames = (schema: unknown, seen = new Set<unknown>()): string[] => {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (!def) return [];
  const names: string[] = [];
  for (const [k, v] of Object.entries(def)) {
    if (k === 'shape' && typeof v === 'object' && v !== null) {
      for (const [field, sub] of Object.entries(v)) names.push(field, ...fieldNames(sub, seen));
    } else if (k === 'getter' && typeof v === 'function') {
      names.push(...fieldNames((v as () => unknown)(), seen));
    } else if (Array.isArray(v)) {
      for (const x of v) names.push(...fieldNames(x, seen));
    } else {
      names.push(...fieldNames(v, seen));
    }
  }
  return names;
};

let home: string;
let service: Sandbox;
let host: AppHost;
let profileId: number;
let studyId: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'vs-nokey-'));
  service = await startSandbox({
    port: 0,
    config: { organisations: [{ id: 'lab', name: 'Lab', apiKeys: [KEY] }], scenario: 'fast' },
  });
  host = await openHost({
    workspaceDir: home,
    mode: 'browser',
    keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'test' },
    log: { error: () => {} },
  });
  const created = await host.router.handle(
    'profiles.create',
    { name: 'Lab', baseUrl: service.url, apiVersion: 'v1.3', apiKey: KEY },
    { via: 'direct' },
  );
  if (!created.ok) throw new Error(created.error.message);
  profileId = (created.value as { id: number }).id;
  const study = await host.router.handle('studies.create', { name: 'Pilot', profileId }, { via: 'direct' });
  if (!study.ok) throw new Error(study.error.message);
  studyId = (study.value as { id: number }).id;
}, 60_000);

afterAll(async () => {
  await host?.close();
  await service?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the API key never reaches the renderer', () => {
  it('no output schema and no event payload has a field that could carry a secret', () => {
    const offenders = [
      ...Object.entries(procedures).flatMap(([m, p]) =>
        fieldNames(p.output)
          .filter((f) => SECRETISH.test(f))
          .map((f) => `${m}: ${f}`),
      ),
      ...Object.entries(events).flatMap(([e, d]) =>
        fieldNames(d.payload)
          .filter((f) => SECRETISH.test(f))
          .map((f) => `event ${e}: ${f}`),
      ),
    ];
    expect(offenders).toEqual([]);
    // The walk does see fields (so an empty list above means something).
    expect(fieldNames(procedures['profiles.list'].output)).toEqual(
      expect.arrayContaining(['hasKey', 'keyLocation', 'baseUrl']),
    );
  });

  it('no answer of any procedure contains it, including the ones that take a key', async () => {
    const ids = { profileId, studyId, participantId: 1, recordingId: 1, batchId: 1 };
    const candidates: unknown[] = [
      {},
      { profileId },
      { studyId },
      { studyId, offset: 0, limit: 50 },
      { studyId, participantId: 1 },
      { recordingId: 1 },
      { batchId: 1 },
      ids,
      { baseUrl: service.url, apiVersion: 'v1.3', apiKey: KEY },
      { profileId, apiKey: KEY },
    ];
    const skip = new Set<Method>(['profiles.removeKey', 'studies.delete']);
    const called: string[] = [];
    for (const method of Object.keys(procedures) as Method[]) {
      if (skip.has(method)) continue;
      const input = candidates.find((c) => procedures[method].input.safeParse(c).success);
      if (input === undefined) continue;
      const answer = await host.router.handle(method, input, { via: 'direct' });
      called.push(method);
      expect(JSON.stringify(answer), method).not.toContain(KEY);
    }
    expect(called).toEqual(
      expect.arrayContaining([
        'profiles.list',
        'profiles.test',
        'profiles.testDraft',
        'profiles.replaceKey',
        'app.info',
        'studies.get',
        'audit.list',
        'audit.verify',
        'privacy.settings',
      ]),
    );
    expect(called.length).toBeGreaterThan(20);
  });
});
