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
 *
 * Input never stops it (docs/security.md): a request line, URL or percent-encoding it cannot read is
 * answered 400; a WebSocket message larger than MAX_MESSAGE_BYTES closes that socket with 1009, one
 * that is not UTF-8 with 1007, binary with 1003, not a call with 1008; every socket and the server
 * have an error handler, so one broken peer never reaches the process.
 *
 * Downloads (`/download/...`) need a one-time ticket (`?ticket=`, from `POST /download-ticket` with the
 * token in an `Authorization: Bearer` header, or from `issueDownloadTicket`), so the launch token
 * never has to be in a URL that lands in the browser's history. The launch token in a download URL
 * opens nothing (403): the window asks for a ticket on each click (renderer/src/lib/rpc/download.ts).
 * Audio (`/download/media/...`, main/rpc/media-route.ts) takes a session ticket instead: the same path
 * any number of times (a media element reads in byte ranges) until it has been idle for 30 minutes.
 *
 * The window's page asked for with the launch token carries its first screen's answers (`app.info`, as
 * the router answers it) in a JSON data block (main/rpc/first-screen-data.ts) and, with
 * `renderFirstScreen`, the first screen itself rendered into it with every answer it was drawn from
 * (main/rpc/first-screen-page.ts); without the token it is the file as built.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { RENDERER_CSP, RENDERER_TYPES } from '../renderer-serving';
import type { EventBus } from './event-bus';
import { firstScreenDataBlock, withFirstScreenData } from './first-screen-data';
import { firstScreenPage, stylesheetPreloads } from './first-screen-page';
import { MEDIA_DOWNLOAD_PREFIX } from './media-route';
import { createDownloadTickets, type DownloadTickets } from './export-downloads';
import type { Router } from './router';

export interface BridgeOptions {
  readonly router: Router;
  readonly bus: EventBus;
  /** The built renderer (index.html and its assets). */
  readonly staticDir: string;
  readonly port?: number;
  /** Default: 32 random bytes, base64url. */
  readonly token?: string;
  /** Extra GET routes under `/download/`, reached with a one-time ticket only; return true when handled. */
  readonly routes?: (path: string, req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  /** Download tickets (default: a store of its own, tickets live 60 s and open one download). */
  readonly tickets?: DownloadTickets;
  /**
   * Render the first screen into the page asked for with the launch token (main/rpc/first-screen-page.ts;
   * browser mode's host does). Default: false, the page carries the first screen's answers only.
   */
  readonly renderFirstScreen?: boolean;
  /** Where a peer's broken socket or a failed call is noted (default: nowhere). */
  readonly onError?: (what: string, e: unknown) => void;
}

export interface Bridge {
  /** The address to open, token included. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** A one-time ticket for one download path (e.g. `/download/exports/x.zip`); append `?ticket=…`. */
  issueDownloadTicket(path: string): string;
  connections(): number;
  close(): Promise<void>;
}

const CallMessage = z.object({ id: z.int().nonnegative(), method: z.string().max(100), input: z.unknown() });

/** Browser mode's Content Security Policy: the Electron window's (only this origin, no inline script, no plugins, no framing). */
export const BROWSER_CSP = RENDERER_CSP;

/** The renderer's types; browser mode also serves source maps. */
const TYPES: Record<string, string> = { ...RENDERER_TYPES, '.map': 'application/json' };

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The largest WebSocket message the bridge reads (4 MiB); a larger one closes the socket with 1009. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** The largest `POST /download-ticket` body. */
const MAX_TICKET_REQUEST_BYTES = 2048;
/** Request lines and URLs longer than this are answered 414 before anything reads them. */
const MAX_URL_LENGTH = 8192;

/** The request's URL against this server's origin, or null when it is not one (answered 400). */
const parseUrl = (raw: string | undefined, origin: string): URL | null => {
  if (raw === undefined || raw.length > MAX_URL_LENGTH || !raw.startsWith('/')) return null;
  try {
    const url = new URL(raw, origin);
    // Every percent-escape must decode: a path that cannot be read is refused here, not deeper.
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return null;
  }
};

/** What every stage of the bridge reads: the options, the launch token, the tickets and, once listening, its address. */
interface BridgeContext {
  readonly o: BridgeOptions;
  readonly token: string;
  /** The built renderer's folder, resolved. */
  readonly root: string;
  readonly tickets: DownloadTickets;
  /** Known once the server listens: its origin and the Host headers that name it. */
  readonly address: { origin: string; hosts: string[] };
  readonly noted: (what: string) => (e: unknown) => void;
}

/**
 * No `Cross-Origin-Opener-Policy` here (the Electron scheme keeps it, main/electron/protocol.ts): a tab
 * whose blank first document has none must change browsing-context group to load a page that has one,
 * and Chromium starts a new renderer process for it. In a fresh browser context that held the first
 * heading back by about 100 ms (page parsed at a median 333 against 132 ms, first heading 521 against
 * 428, eight loads each alternating, `BASELINE_DIR=<tree> npx tsx test/bench/first-screen-ab.ts`;
 * docs/ui.md "Round 9"). What it would guard, a window that opened ours keeping a handle to it, is not
 * there to guard: the host opens the window with no opener; a page elsewhere that opens this origin
 * cannot give it the launch token, so what it holds a handle to is a window the WebSocket refuses; and
 * the window opens no other window (no `_blank` link, no `window.open`). Cross-origin handles still
 * cannot read the page, its address or its storage.
 */
const securityHeaders = (res: http.ServerResponse) => {
  res.setHeader('Content-Security-Policy', BROWSER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
};
const hostAllowed = (ctx: BridgeContext, req: http.IncomingMessage) =>
  ctx.address.hosts.includes(req.headers.host ?? '');
const tokenOf = (url: URL) => url.searchParams.get('token') ?? '';
const ownOrigin = (ctx: BridgeContext, req: http.IncomingMessage) =>
  ctx.address.hosts.map((h) => `http://${h}`).includes(req.headers.origin ?? '');
const bearer = (req: http.IncomingMessage) =>
  /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';

/** `POST /download-ticket` `{"path": "/download/..."}` → `{ticket, url}`; token in the header, never the URL. */
const mintTicket = (ctx: BridgeContext, req: http.IncomingMessage, res: http.ServerResponse) => {
  if (!ownOrigin(ctx, req) || !sameSecret(bearer(req), ctx.token)) {
    res.writeHead(403).end('Forbidden');
    return;
  }
  const parts: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_TICKET_REQUEST_BYTES) {
      res.writeHead(413, { Connection: 'close' }).end('Too large');
      req.destroy();
      return;
    }
    parts.push(c);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    let path: unknown;
    try {
      path = (JSON.parse(Buffer.concat(parts).toString('utf8')) as { path?: unknown }).path;
    } catch {
      path = undefined;
    }
    if (
      typeof path !== 'string' ||
      !path.startsWith('/download/') ||
      parseUrl(path, ctx.address.origin)?.pathname !== path
    ) {
      res.writeHead(400).end('Bad request');
      return;
    }
    // Audio is read by a media element in many range requests: its ticket is a session ticket.
    const ticket = ctx.tickets.issue(path, { session: path.startsWith(MEDIA_DOWNLOAD_PREFIX) });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ ticket, url: `${path}?ticket=${ticket}` }));
  });
};

/** The window's page asked for with the launch token: with its first screen's answers in it. */
const servePage = (ctx: BridgeContext, file: string, res: http.ServerResponse) => {
  const { o, noted } = ctx;
  const page = o.renderFirstScreen
    ? readFile(file, 'utf8').then((html) => firstScreenPage(o.router, html, noted('first screen')))
    : Promise.all([readFile(file, 'utf8'), firstScreenDataBlock(o.router).catch(() => '')]).then(
        ([html, block]) => ({ html: withFirstScreenData(html, block), renderMs: null, prepared: false }),
      );
  void page
    .then(({ html, renderMs, prepared }) => {
      const preloads = stylesheetPreloads(html);
      res.writeHead(200, {
        'Content-Type': TYPES['.html']!,
        ...(preloads === null ? {} : { Link: preloads }),
        // A page rendered for an earlier request whose answers still hold: `desc="prepared"`.
        ...(renderMs === null
          ? {}
          : { 'Server-Timing': `ssr;dur=${renderMs.toFixed(1)}${prepared ? ';desc="prepared"' : ''}` }),
      });
      res.end(html);
    })
    .catch((e: unknown) => {
      noted('page')(e);
      if (!res.headersSent) res.writeHead(500).end('Internal error');
      else res.destroy();
    });
};

/** `/download/...`: a ticket only; the launch token in a download URL (`?token=`) opens nothing. */
const serveDownload = (ctx: BridgeContext, url: URL, req: http.IncomingMessage, res: http.ServerResponse) => {
  const ticket = url.searchParams.get('ticket');
  if (ticket === null || !ctx.tickets.redeem(ticket, url.pathname)) {
    res.writeHead(403).end('Forbidden');
    return;
  }
  if (ctx.o.routes?.(url.pathname, req, res)) return;
  res.writeHead(404).end('Not found');
};

/** A file of the built renderer; the window's page, asked for with the launch token, with its first screen. */
const serveStatic = (ctx: BridgeContext, url: URL, req: http.IncomingMessage, res: http.ServerResponse) => {
  const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
  const file = normalize(join(ctx.root, rel));
  if (!file.startsWith(ctx.root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end('Not found');
    return;
  }
  if (rel === 'index.html' && req.method === 'GET' && sameSecret(tokenOf(url), ctx.token)) {
    servePage(ctx, file, res);
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', (e) => {
    ctx.noted('static file')(e);
    res.destroy();
  });
  stream.pipe(res);
};

const serve = (ctx: BridgeContext, req: http.IncomingMessage, res: http.ServerResponse) => {
  securityHeaders(res);
  if (!hostAllowed(ctx, req)) {
    res.writeHead(421).end('Misdirected request');
    return;
  }
  const url = parseUrl(req.url, ctx.address.origin);
  if (url === null) {
    res.writeHead(400).end('Bad request');
    return;
  }
  if (req.method === 'POST' && url.pathname === '/download-ticket') {
    mintTicket(ctx, req, res);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  if (url.pathname.startsWith('/download/')) {
    serveDownload(ctx, url, req, res);
    return;
  }
  serveStatic(ctx, url, req, res);
};

/** The HTTP server: every request served, every error noted, never thrown into the process. */
const httpServer = (ctx: BridgeContext): http.Server => {
  const { noted } = ctx;
  const server = http.createServer((req, res) => {
    req.on('error', noted('request'));
    res.on('error', noted('response'));
    try {
      serve(ctx, req, res);
    } catch (e) {
      noted('request handler')(e);
      if (!res.headersSent) res.writeHead(500).end('Internal error');
      else res.destroy();
    }
  });
  // A request line or header Node's parser refuses: 400 (or 431/414 as Node classes it), then close.
  server.on('clientError', (e: NodeJS.ErrnoException, socket) => {
    socket.on('error', () => {});
    if (!socket.writable || e.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status =
      e.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  server.on('error', noted('server'));
  server.on('connection', (socket) => socket.on('error', noted('socket')));
  return server;
};

/** The WebSocket at /rpc: only this host, this origin and the launch token get through. */
const acceptUpgrades = (ctx: BridgeContext, server: http.Server, wss: WebSocketServer) => {
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', ctx.noted('upgrade socket'));
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n\r\n`);
    };
    try {
      const url = parseUrl(req.url, ctx.address.origin);
      if (url === null) return refuse(400, 'Bad Request');
      if (url.pathname !== '/rpc') return refuse(404, 'Not Found');
      if (!hostAllowed(ctx, req)) return refuse(421, 'Misdirected Request');
      if (!ownOrigin(ctx, req)) return refuse(403, 'Forbidden');
      if (!sameSecret(tokenOf(url), ctx.token)) return refuse(401, 'Unauthorized');
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    } catch (e) {
      ctx.noted('upgrade')(e);
      socket.destroy();
    }
  });
};

/** One connected window: its calls go to the router, the bus's events come back. */
const carryCalls = (ctx: BridgeContext, ws: WebSocket) => {
  const { o, noted } = ctx;
  // ws closes the socket itself on a broken frame (1002), too large a message (1009) or bad UTF-8
  // (1007) and then reports it here: noted, never thrown into the process.
  ws.on('error', noted('websocket'));
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
      .then((envelope) => send({ id: call.data.id, envelope }))
      .catch(noted('call'));
  });
};

export const startBridge = async (o: BridgeOptions): Promise<Bridge> => {
  const ctx: BridgeContext = {
    o,
    token: o.token ?? randomBytes(32).toString('base64url'),
    root: resolve(o.staticDir),
    tickets: o.tickets ?? createDownloadTickets(),
    address: { origin: '', hosts: [] },
    noted: (what: string) => (e: unknown) => o.onError?.(what, e),
  };
  const server = httpServer(ctx);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  wss.on('error', ctx.noted('websocket server'));
  acceptUpgrades(ctx, server, wss);
  wss.on('connection', (ws: WebSocket) => carryCalls(ctx, ws));

  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(o.port ?? 0, '127.0.0.1', () => res());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  ctx.address.origin = origin;
  ctx.address.hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const { token, tickets } = ctx;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    issueDownloadTicket: (path) => tickets.issue(path),
    connections: () => wss.clients.size,
    async close() {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
};
