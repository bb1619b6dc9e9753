/**
 * The renderer's side of the contract: it checks what it sends and what it receives, so a wrong
 * request never leaves the window and a malformed answer or event never reaches a screen; a broken
 * transport is an error value, not an exception.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Transport } from '../../../shared/rpc';
import { createRpcClient } from '../../../renderer/src/lib/rpc/client';
import { contractChecks } from '../../../renderer/src/lib/rpc/contract-checks';

const transport = (
  answer: (method: string, input: unknown) => unknown,
): Transport & { emit(e: string, p: unknown): void; sent: unknown[] } => {
  let listener: ((e: string, p: unknown) => void) | null = null;
  const sent: unknown[] = [];
  return {
    sent,
    request: async (method, input) => {
      sent.push({ method, input });
      return answer(method, input);
    },
    subscribe: (l) => {
      listener = l;
      return () => {
        listener = null;
      };
    },
    emit: (e, p) => listener?.(e, p),
  };
};

describe('renderer RPC client', () => {
  it('does not send an input outside the contract', async () => {
    const t = transport(() => ({ ok: true, value: [] }));
    const r = await createRpcClient(t, contractChecks).call('studies.get', { studyId: -3 });
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(t.sent).toEqual([]);
  });

  it('checks the answer against the procedure: a wrong shape is an error, not data', async () => {
    const t = transport(() => ({ ok: true, value: [{ id: 'not a number' }] }));
    const r = await createRpcClient(t, contractChecks).call('studies.list', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
  });

  it('passes a typed refusal through', async () => {
    const error = { code: 'CONFLICT', message: 'Taken.', action: 'Choose another.', retryable: false };
    const r = await createRpcClient(
      transport(() => ({ ok: false, error })),
      contractChecks,
    ).call('studies.list', {});
    expect(r).toEqual({ ok: false, error });
  });

  it('turns a lost connection into an error value the screen can show', async () => {
    const r = await createRpcClient(
      transport(() => {
        throw new Error('connection lost');
      }),
      contractChecks,
    ).call('studies.list', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED', retryable: true } });
    if (!r.ok) expect(r.error.message).toMatch(/lost the connection/);
  });

  it('delivers only events that match the contract', async () => {
    const t = transport(() => null);
    const client = createRpcClient(t, contractChecks);
    const seen = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    client.on('imports.progress', seen);
    t.emit('imports.progress', { done: 1, total: 2 });
    t.emit('imports.progress', { done: 'one' });
    t.emit('no.such.event', {});
    expect(seen.mock.calls).toEqual([[{ done: 1, total: 2 }]]);
  });

  it('hands a timeline over as the host checked it, and checks it afterwards, off the charts’ path', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    error.mockClear();
    const wrong = { ok: true, value: { participantId: 'not a number' } };
    const r = await createRpcClient(
      transport(() => wrong),
      contractChecks,
    ).call('timeline.participant', { participantId: 1 });
    expect(r).toBe(wrong);
    expect(error).not.toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith(
        'voicescope: answer of timeline.participant outside the contract',
        expect.any(String),
      ),
    );
  });

  it('still checks a timeline request before sending it, and passes a refusal through', async () => {
    const refusal = {
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No such participant.', action: 'Go back.', retryable: false },
    };
    const t = transport(() => refusal);
    const client = createRpcClient(t, contractChecks);
    expect(await client.call('timeline.participant', { participantId: -1 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(t.sent).toEqual([]);
    expect(await client.call('timeline.participant', { participantId: 1 })).toEqual(refusal);
  });

  describe('with its checks loaded after the first screen', () => {
    const later = () => {
      const load = vi.fn(async () => contractChecks);
      return { load };
    };

    it('sends the first calls before the checks are asked for, and passes the host-checked answer through', async () => {
      const { load } = later();
      const t = transport(() => ({ ok: true, value: { version: '1', mode: 'browser' } }));
      const r = await createRpcClient(t, load).call('studies.list', {});
      expect(r).toEqual({ ok: true, value: { version: '1', mode: 'browser' } });
      expect(load).not.toHaveBeenCalled();
    });

    it('still refuses an answer that is not an envelope, once the checks say why', async () => {
      const { load } = later();
      const r = await createRpcClient(
        transport(() => 'garbage'),
        load,
      ).call('studies.list', {});
      expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
      expect(load).toHaveBeenCalledTimes(1);
    });

    it('checks every call once the checks have arrived, and loads them once', async () => {
      const { load } = later();
      const t = transport(() => ({ ok: true, value: [{ id: 'not a number' }] }));
      const client = createRpcClient(t, load);
      await Promise.all([client.contract(), client.contract()]);
      expect(load).toHaveBeenCalledTimes(1);
      expect(await client.call('studies.get', { studyId: -3 })).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION' },
      });
      expect(t.sent).toEqual([]);
      expect(await client.call('studies.list', {})).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION' },
      });
    });

    it('holds events until the checks arrive, then delivers only those that match the contract', async () => {
      const { load } = later();
      const t = transport(() => null);
      const client = createRpcClient(t, load);
      const seen = vi.fn();
      vi.spyOn(console, 'error').mockImplementation(() => {});
      client.on('imports.progress', seen);
      t.emit('imports.progress', { done: 1, total: 2 });
      t.emit('imports.progress', { done: 'one' });
      expect(seen).not.toHaveBeenCalled();
      await client.contract();
      await Promise.resolve();
      expect(seen.mock.calls).toEqual([[{ done: 1, total: 2 }]]);
    });
  });
});
