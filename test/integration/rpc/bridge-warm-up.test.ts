/**
 * The host's own first page load: it asks for the page with the token (so the bridge answers
 * the first screen's `app.info` into it) and its stylesheet, opens a WebSocket
 * with this launch's token from the bridge's own origin and calls `app.info`, as the window does, and
 * is done; against a bridge that refuses it, it notes the failure and never throws.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { warmUpBridge } from '../../../main/rpc/bridge-warm-up';
import { createEventBus } from '../../../main/rpc/event-bus';
import { createRouter, type Handlers } from '../../../main/rpc/router';
import { startBridge, type Bridge } from '../../../main/rpc/ws-bridge';
import { procedures } from '../../../shared/contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';

const dir = mkdtempSync(join(tmpdir(), 'vs-warm-up-'));
const calls: string[] = [];
const handlers = Object.fromEntries(
  Object.keys(procedures).map((m) => [m, () => err(appError('INTERNAL', 'x', 'y'))]),
) as unknown as Record<string, unknown>;
// Any answer will do (this one is outside the contract, so the router answers with an error): the
// warm-up only waits for it.
handlers['app.info'] = () => {
  calls.push('app.info');
  return ok({});
};
let bridge: Bridge;

beforeAll(async () => {
  mkdirSync(join(dir, 'static'));
  writeFileSync(join(dir, 'static', 'index.html'), '<!doctype html><title>v</title>');
  writeFileSync(join(dir, 'static', 'app.css'), 'body{}');
  bridge = await startBridge({
    router: createRouter(handlers as unknown as Handlers, { error: () => {} }),
    bus: createEventBus(),
    staticDir: join(dir, 'static'),
  });
});
afterAll(async () => {
  await bridge.close();
  rmSync(dir, { recursive: true, force: true });
});

it('loads the page (which answers app.info into it), connects with the token and calls app.info, then lets go of the connection', async () => {
  const noted = vi.fn();
  await warmUpBridge(bridge, noted);
  // Once for the page asked for with the token (main/rpc/first-screen-data.ts), once over the WebSocket.
  expect(calls).toEqual(['app.info', 'app.info']);
  expect(noted).not.toHaveBeenCalled();
  await vi.waitFor(() => expect(bridge.connections()).toBe(0));
});

it('notes a bridge that refuses it (here a wrong token) and does not throw', async () => {
  const noted = vi.fn();
  await warmUpBridge({ ...bridge, token: 'not-the-token' }, noted);
  expect(noted).toHaveBeenCalledTimes(1);
});
