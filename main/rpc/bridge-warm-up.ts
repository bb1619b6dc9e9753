/**
 * Browser mode's first page load, made by the host itself as soon as it has announced its address
 * (while the browser starts): the page with the token (which has the bridge answer `app.info` into it,
 * main/rpc/first-screen-data.ts, and render the first screen into it, main/rpc/first-screen-page.ts: its
 * first render costs more than the next), its stylesheet, a WebSocket and `app.info` over it, as the window does. Node compiles its HTTP, WebSocket and router paths on first use, so the first request
 * and call cost the host more than the next (under a load of 28 on this 2-core machine: the first page
 * 80 to 220 ms and the first call 13 to 37 ms without the warm-up, 20 to 110 and 4 to 12 ms with it),
 * which the researcher's first window would otherwise pay. Everything stays on the loopback
 * and uses the launch token as the window does; a failure is only a slower first window, so it is
 * noted, never thrown.
 */
import WebSocket from 'ws';
import type { Bridge } from './ws-bridge';

const WARM_UP_TIMEOUT_MS = 5_000;

export const warmUpBridge = async (bridge: Bridge, noted: (e: unknown) => void = () => {}): Promise<void> => {
  const signal = AbortSignal.timeout(WARM_UP_TIMEOUT_MS);
  try {
    await (await fetch(bridge.url, { signal })).text();
    await (await fetch(`${bridge.origin}/app.css`, { signal })).arrayBuffer();
    const ws = new WebSocket(`${bridge.origin.replace(/^http/, 'ws')}/rpc?token=${bridge.token}`, {
      headers: { Origin: bridge.origin },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('warm-up timed out')), WARM_UP_TIMEOUT_MS);
        ws.once('error', reject);
        ws.once('open', () => ws.send(JSON.stringify({ id: 1, method: 'app.info', input: {} })));
        ws.on('message', (data: WebSocket.RawData) => {
          if ((JSON.parse(data.toString()) as { id?: number }).id !== 1) return;
          clearTimeout(timer);
          resolve();
        });
      });
    } finally {
      ws.close();
    }
  } catch (e) {
    noted(e);
  }
};
