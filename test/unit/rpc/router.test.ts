/**
 * The router, as the contract says: input parsed before any handler runs, output parsed before it
 * leaves, refusals as values, exceptions as typed errors (SQLite's in the researcher's words,
 * anything else INTERNAL without its details), never a throw across the boundary.
 */
import { describe, expect, it, vi } from 'vitest';
import { procedures } from '../../../shared/contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import { createRouter, type Handlers } from '../../../main/rpc/router';

const PROFILE = {
  id: 1,
  name: 'Lab',
  baseUrl: 'https://x',
  apiVersion: 'v1.3',
  isSandbox: false,
  hasKey: true,
  keyLocation: 'k',
  studies: 0,
  lastUsage: null,
};

/** Every handler answers INTERNAL unless the test replaces it: the router needs the full set. */
const handlers = (over: Partial<Record<string, (i: unknown) => unknown>>): Handlers =>
  Object.fromEntries(
    Object.keys(procedures).map((m) => [m, over[m] ?? (() => err(appError('INTERNAL', 'x', 'y')))]),
  ) as unknown as Handlers;

const log = () => ({ error: vi.fn() });
const ctx = { via: 'direct' as const };

describe('router', () => {
  it('refuses an unknown method without running anything', async () => {
    const r = await createRouter(handlers({}), log()).handle('profiles.delete', {}, ctx);
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('parses the input first: a wrong input never reaches the handler and comes back as VALIDATION with paths', async () => {
    const spy = vi.fn(() => ok([]));
    const r = await createRouter(handlers({ 'participants.page': spy }), log()).handle(
      'participants.page',
      { studyId: 'one', sort: 'code', dir: 'asc', offset: 0, limit: 10_000 },
      ctx,
    );
    expect(spy).not.toHaveBeenCalled();
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['studyId', 'limit']));
  });

  it('applies the contract defaults before the handler sees the input', async () => {
    const spy = vi.fn((i: unknown) =>
      ok({
        studyId: (i as { studyId: number }).studyId,
        baselineSessions: 3,
        baselineSessionsIsDefault: true,
        baselineRule: { sessions: 3, source: 'default', firstFollowUp: null },
        fallback: { sessions: 3, source: 'default', firstFollowUp: null },
        measures: [],
      }),
    );
    const r = await createRouter(handlers({ 'reliability.set': spy }), log()).handle(
      'reliability.set',
      { studyId: 1, measureKey: 'pd_hnr', r: 0.5 },
      ctx,
    );
    expect(spy).toHaveBeenCalledWith({ studyId: 1, measureKey: 'pd_hnr', r: 0.5, note: '' }, ctx);
    expect(r.ok).toBe(true);
  });

  it('parses the output: an answer outside the contract is not sent, and the log says which method', async () => {
    const l = log();
    const r = await createRouter(
      handlers({ 'profiles.list': () => ok([{ ...PROFILE, apiKey: 'secret-key-1234', apiVersion: 'v9' }]) }),
      l,
    ).handle('profiles.list', {}, ctx);
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(l.error).toHaveBeenCalledWith(expect.stringContaining('profiles.list'), expect.anything());
  });

  it('strips what the contract does not name from an answer (a key a handler should not have returned never leaves)', async () => {
    const r = await createRouter(
      handlers({ 'profiles.list': () => ok([{ ...PROFILE, apiKey: 'secret-key-1234' }]) }),
      log(),
    ).handle('profiles.list', {}, ctx);
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toContain('secret-key-1234');
  });

  it('passes a refusal through as it is', async () => {
    const refusal = appError('CONFLICT', 'A study named "A" already exists.', 'Choose another name.');
    const r = await createRouter(handlers({ 'studies.create': () => err(refusal) }), log()).handle(
      'studies.create',
      { name: 'A', profileId: 1 },
      ctx,
    );
    expect(r).toEqual({ ok: false, error: refusal });
  });

  it.each([
    ['SQLITE_FULL', 'DISK_FULL', /disk .* is full/],
    ['SQLITE_READONLY', 'DB_READONLY', /cannot be written/],
    ['SQLITE_BUSY', 'DB_BUSY', /locked by another program/],
    ['SQLITE_CORRUPT', 'DB_CORRUPT', /damaged/],
    ['SQLITE_IOERR_WRITE', 'DB_IO', /reported an error while reading or writing/],
  ])('an exception with %s becomes %s in plain words', async (code, expected, message) => {
    const thrown = Object.assign(new Error('database or disk is full'), { code });
    const r = await createRouter(
      handlers({
        'studies.list': () => {
          throw thrown;
        },
      }),
      log(),
    ).handle('studies.list', {}, ctx);
    expect(r).toMatchObject({ ok: false, error: { code: expected } });
    if (!r.ok) {
      expect(r.error.message).toMatch(message);
      expect(r.error.action.length).toBeGreaterThan(10);
    }
  });

  it('any other exception is INTERNAL: logged with its stack, sent without its details', async () => {
    const l = log();
    const r = await createRouter(
      handlers({
        'studies.list': async () => {
          throw new Error('SELECT * FROM secret_table at /home/me/study');
        },
      }),
      l,
    ).handle('studies.list', {}, ctx);
    expect(r).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(r)).not.toContain('secret_table');
    expect(l.error).toHaveBeenCalled();
  });
});
