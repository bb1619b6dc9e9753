/**
 * What the log keeps out is read by each line synchronously, from facts the services hold in memory
 * (main/privacy/log-facts.ts): they are loaded when the workspace opens and follow every change the
 * window makes, from the next line on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppHost, type AppHost } from '../../../main/app-host';
import { insertProfile, setProfileKeyRef } from '../../../main/db/repos/profiles.repo';
import { createLogger } from '../../../main/log';
import { createLogFacts } from '../../../main/privacy/log-facts';
import { freshStudyStore } from '../../support/fresh-study-db';

const homes: string[] = [];
const hosts: AppHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
});

const open = async (home: string) => {
  const lines: string[] = [];
  const logger = createLogger({ out: (l) => lines.push(l), err: (l) => lines.push(l) });
  const host = await openAppHost({
    workspaceDir: home,
    mode: 'browser',
    keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'test' },
    log: { error: () => {} },
    logger,
  });
  hosts.push(host);
  const call = async (method: string, input: unknown) => {
    const r = await host.router.handle(method, input, { via: 'direct' });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  return { host, logger, lines, call };
};

const newHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'vs-logfacts-'));
  homes.push(home);
  return home;
};

describe("the log's facts", () => {
  it('follow diagnostic mode from the next line, and are loaded again at the next start', async () => {
    const home = newHome();
    const a = await open(home);
    a.logger.info('looked at', { participant_code: 'ZX-0917' });
    await a.call('privacy.setDiagnostic', { on: true });
    a.logger.info('looked again at', { participant_code: 'ZX-0917' });
    expect(a.lines.filter((l) => l.includes('looked')).map((l) => l.includes('ZX-0917'))).toEqual([
      false,
      true,
    ]);
    await a.host.close();
    hosts.splice(0);

    const b = await open(home);
    b.logger.info('after the restart', { participant_code: 'ZX-0917' });
    await b.call('privacy.setDiagnostic', { on: false });
    b.logger.info('switched off', { participant_code: 'ZX-0917' });
    expect(b.lines.filter((l) => /restart|switched/.test(l)).map((l) => l.includes('ZX-0917'))).toEqual([
      true,
      false,
    ]);
  });

  it('keep the key of a profile created after the start out of the log, and its replacement too', async () => {
    const a = await open(newHome());
    const first = 'vs-made-after-start-5b1e0c7d9a';
    const p = (await a.call('profiles.create', {
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      apiKey: first,
    })) as { id: number };
    a.logger.error(`upload failed with ${first}`);
    const second = 'vs-replaced-later-8c2f4a6e1d';
    await a.call('profiles.replaceKey', { profileId: p.id, apiKey: second });
    a.logger.error(`upload failed with ${second}`);
    const text = a.lines.join('\n');
    expect(text).toContain('upload failed with');
    expect(text).not.toContain(first);
    expect(text).not.toContain(second);
  });

  it('keep a key reference the engine noted, even when a reading of the profiles begun before ends after', async () => {
    const store = freshStudyStore();
    const facts = createLogFacts();
    const id = await insertProfile(store, {
      name: 'Lab',
      baseUrl: 'https://api.example.org',
      apiVersion: 'v1.3',
      isSandbox: false,
      createdAt: '2026-11-29T00:00:00.000Z',
    });
    await setProfileKeyRef(store, id, 'key-file:1');
    const reading = facts.refreshKeyRefs(store);
    facts.noteKeyRef('env:OTHER_PROCESS_KEY');
    await reading;
    expect(facts.keyRefs).toEqual(['key-file:1', 'env:OTHER_PROCESS_KEY']);
    await store.close();
  });
});
