/**
 * Browser mode's transport: one HTTP server on 127.0.0.1 that serves the built renderer and carries
 * the IPC contract over a WebSocket at /rpc, on the same origin (so the page's Content Security Policy
 * can stay `connect-src 'self'`). No web page and no other local user can drive it:
 *   - it listens on the loopback address only;
 *   - the Host header must name that address (no DNS rebinding);
 *   - the WebSocket's Origin must be this server's own origin (no other web page);
 *   - the connection must present the per-launch secret token, compared in constant time (no other
 *     local user: only the user who started it sees the token).
 * Messages: `{id, method, input}` in; `{id, envelope}` and `{event, payload}` out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import type { EventBus } from './event-bus';
import type { Router } from './router';

export interface BridgeOptions {
  readonly router: Router;
  readonly bus: EventBus;
  /** The built renderer (index.html and its assets). */
  readonly staticDir: string;
  readonly port?: number;
  /** Default: 32 random bytes, base64url. */
  readonly token?: string;
  /** Extra token-protected GET routes (export downloads); return true when handled. */
  readonly routes?: (path: string, req: http.IncomingMessage, res: http.ServerResponse) => boolean;
}

export interface Bridge {
  /** The address to open, token included. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  connections(): number;
  close(): Promise<void>;
}

const CallMessage = z.object({ id: z.int().nonnegative(), method: z.string().max(100), input: z.unknown() });

/** Browser mode's Content Security Policy: only this origin, no inline script, no plugins, no framing. */
export const BROWSER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export const startBridge = async (o: BridgeOptions): Promise<Bridge> => {
  const token = o.token ?? randomBytes(32).toString('base64url');
  const root = resolve(o.staticDir);
  let origin = '';
  let hosts: string[] = [];

  const securityHeaders = (res: http.ServerResponse) => {
    res.setHeader('Content-Security-Policy', BROWSER_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
  };
  const hostAllowed = (req: http.IncomingMessage) => hosts.includes(req.headers.host ?? '');
  const tokenOf = (url: URL) => url.searchParams.get('token') ?? '';

  const server = http.createServer((req, res) => {
    securityHeaders(res);
    if (!hostAllowed(req)) {
      res.writeHead(421).end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith('/download/')) {
      if (!sameSecret(tokenOf(url), token)) {
        res.writeHead(403).end('Forbidden');
        return;
      }
      if (o.routes?.(url.pathname, req, res)) return;
      res.writeHead(404).end('Not found');
      return;
    }
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('Not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n\r\n`);
    };
    if (url.pathname !== '/rpc') return refuse(404, 'Not Found');
    if (!hostAllowed(req)) return refuse(421, 'Misdirected Request');
    if (!hosts.map((h) => `http://${h}`).includes(req.headers.origin ?? '')) return refuse(403, 'Forbidden');
    if (!sameSecret(tokenOf(url), token)) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    const send = (m: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
    };
    const unsubscribe = o.bus.subscribe((event, payload) => send({ event, payload }));
    ws.on('close', unsubscribe);
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.close(1003, 'text only');
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString());
      } catch {
        ws.close(1007, 'not JSON');
        return;
      }
      const call = CallMessage.safeParse(parsed);
      if (!call.success) {
        ws.close(1008, 'not a call');
        return;
      }
      void o.router
        .handle(call.data.method, call.data.input, { via: 'websocket' })
        .then((envelope) => send({ id: call.data.id, envelope }));
    });
  });

  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(o.port ?? 0, '127.0.0.1', () => res());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    connections: () => wss.clients.size,
    async close() {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
};
