/**
 * A loopback HTTP server whose answers are scripted request by request, for testing the client's
 * behaviour under faults without mocking fetch. It records every request it received (and whether the
 * whole body arrived).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'text'; status: number; body: string; headers?: Record<string, string> }
  /** Read the whole body, then destroy the socket without answering. */
  | { kind: 'drop' }
  /** Read the whole body, then never answer. */
  | { kind: 'hang' };

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bodyBytes: number;
  body: string;
  /** The client's port: requests on one kept-alive connection share it. */
  clientPort: number;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  kind: 'json',
  status,
  body,
  ...(headers ? { headers } : {}),
});
export const text = (status: number, body: string, headers?: Record<string, string>): Reply => ({
  kind: 'text',
  status,
  body,
  ...(headers ? { headers } : {}),
});

export interface ScriptedServer {
  url: string;
  received: Received[];
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

export const startScriptedServer = async (keepBodies = true): Promise<ScriptedServer> => {
  const queue: Reply[] = [];
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (keepBodies) chunks.push(c);
    });
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bodyBytes: n,
        body: keepBodies ? Buffer.concat(chunks).toString('utf8') : '',
        clientPort: req.socket.remotePort ?? 0,
      });
      const reply =
        queue.shift() ?? json(599, { error: { type: 'Unscripted', message: 'no reply scripted' } });
      switch (reply.kind) {
        case 'drop':
          req.socket.destroy();
          return;
        case 'hang':
          return;
        case 'json':
          res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
          res.end(JSON.stringify(reply.body));
          return;
        case 'text':
          res.writeHead(reply.status, { 'Content-Type': 'text/html', ...reply.headers });
          res.end(reply.body);
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (...replies) => {
      queue.push(...replies);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
};
