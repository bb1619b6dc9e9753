/**
 * What the log keeps out is read by each line synchronously, from facts the services hold in memory
 * (main/privacy/log-facts.ts): they are loaded when the workspace opens and follow every change the
 * window makes, from the next line on; a participant code is known to them before it is written.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppHost } from '../../../main/app-host';
import { openHost } from '../../support/open-host';
import { insertProfile, setProfileKeyRef } from '../../../main/db/repos/profiles.repo';
import { openSqliteStore } from '../../../main/db/store/sqlite-store';
import { createLogger } from '../../../main/log';
import { createLogFacts } from '../../../main/privacy/log-facts';
import type { Queryable, SqlValue, Store } from '../../../main/db/store/types';
import { makeWav } from '../../fixtures/audio';
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
  const host = await openHost({
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

/** A study on the built-in sandbox, through the window's calls. */
const sandboxStudy = async (call: (method: string, input: unknown) => Promise<unknown>) => {
  const profile = (await call('profiles.useSandbox', { apiVersion: 'v1.3' })) as { id: number };
  return ((await call('studies.create', { name: 'Codes', profileId: profile.id })) as { id: number }).id;
};

/** Previews and commits a folder (outside the workspace) of one recording of `code`. */
const importOne = async (
  call: (method: string, input: unknown) => Promise<unknown>,
  studyId: number,
  code: string,
) => {
  const folder = newHome();
  writeFileSync(join(folder, `${code}_s1.wav`), makeWav({ seconds: 40, speechSeconds: 34, seed: 7 }));
  const preview = (await call('imports.preview', {
    studyId,
    paths: [folder],
    filenamePattern: '{participant}_{session}.wav',
    timeZone: 'UTC',
    analyses: ['wellbeing'],
    isolateOldestSpeaker: false,
    convert: false,
  })) as { planId: string };
  await call('imports.commit', { planId: preview.planId, insistOnDuplicates: [], label: 'codes' });
};

/** A participant code being written to the store: the code and whether the log knew it at that moment. */
interface CodeWrite {
  readonly code: string;
  readonly known: boolean;
}

/**
 * Watches every statement that writes a participant code (a new participant, a new code) and notes
 * whether the log's facts already held that code when the statement was sent.
 */
const watchCodeWrites = (store: Store, known: () => readonly string[]): CodeWrite[] => {
  const writes: CodeWrite[] = [];
  const codeOf = (sql: string, params: readonly SqlValue[] | undefined) =>
    /INSERT INTO participants/i.test(sql)
      ? params?.[1]
      : /UPDATE participants SET code/i.test(sql)
        ? params?.[0]
        : undefined;
  const watched = <Q extends Queryable>(q: Q): Q => {
    const note = (sql: string, params: readonly SqlValue[] | undefined) => {
      const code = codeOf(sql, params);
      if (typeof code === 'string') writes.push({ code, known: known().includes(code) });
    };
    const { run, get, all } = q;
    return Object.assign(q, {
      run: (sql: string, params?: readonly SqlValue[]) => (note(sql, params), run.call(q, sql, params)),
      get: (sql: string, params?: readonly SqlValue[]) => (note(sql, params), get.call(q, sql, params)),
      all: (sql: string, params?: readonly SqlValue[]) => (note(sql, params), all.call(q, sql, params)),
    });
  };
  watched(store);
  const transaction = store.transaction.bind(store);
  Object.assign(store, {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>, o?: Parameters<Store['transaction']>[1]) =>
      transaction((tx) => fn(watched({ ...tx })), o),
  });
  return writes;
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

  it('know a participant code before the statement that writes it: created, renamed or imported', async () => {
    const home = newHome();
    const a = await open(home);
    const writes = watchCodeWrites(a.host.service.store, () => a.host.service.logFacts.participantCodes);
    const studyId = await sandboxStudy(a.call);
    const p = (await a.call('participants.create', { studyId, code: 'NEW-4417' })) as { id: number };
    await a.call('participants.rename', { participantId: p.id, code: 'RENAMED-9023' });
    await importOne(a.call, studyId, 'IMPORTED-5561');
    expect(writes.map((w) => w.code)).toEqual(['NEW-4417', 'RENAMED-9023', 'IMPORTED-5561']);
    expect(writes.filter((w) => !w.known)).toEqual([]);
  });

  it('keep a participant code out of the first line after it was created, renamed or imported', async () => {
    const home = newHome();
    const a = await open(home);
    const studyId = await sandboxStudy(a.call);
    const p = (await a.call('participants.create', { studyId, code: 'NEW-4417' })) as { id: number };
    a.logger.error('could not read /data/NEW-4417_s1.wav');
    await a.call('participants.rename', { participantId: p.id, code: 'RENAMED-9023' });
    a.logger.error('could not read /data/RENAMED-9023_s1.wav');
    await importOne(a.call, studyId, 'IMPORTED-5561');
    a.logger.error('could not read /data/IMPORTED-5561_s1.wav');
    const text = a.lines.join('\n');
    expect(text.match(/could not read \/data\/\[participant\]_s1\.wav/g)).toHaveLength(3);
    for (const code of ['NEW-4417', 'RENAMED-9023', 'IMPORTED-5561']) expect(text).not.toContain(code);
  });

  it('pick up a participant code another process wrote, from memory, within a second', async () => {
    const home = newHome();
    const a = await open(home);
    const studyId = await sandboxStudy(a.call);
    // Another process (the command line) adds a participant to the same file.
    const other = openSqliteStore(a.host.service.workspace.dbPath).store;
    await other.run(
      `INSERT INTO participants (study_id, code, created_at) VALUES (?, 'ELSEWHERE-3178', 'x')`,
      [studyId],
    );
    await other.close();
    expect(a.host.service.logFacts.participantCodes).not.toContain('ELSEWHERE-3178');
    // A line starts the check in the background; the list follows once it has read the table.
    await new Promise((r) => setTimeout(r, 1_100));
    a.logger.info('a line');
    await vi.waitFor(() => expect(a.host.service.logFacts.participantCodes).toContain('ELSEWHERE-3178'));
    a.logger.error('could not read /data/ELSEWHERE-3178_s1.wav');
    expect(a.lines.join('\n')).not.toContain('ELSEWHERE-3178');
  });
});
