/**
 * A loopback HTTP server that gives every request the same raw answer until told otherwise, for
 * property tests: the answer is bytes on a real socket (any status, any headers, any body, or a
 * broken connection), so the client is tested through its whole HTTP stack, never through a fetch
 * mock. Retries of one call meet the same answer, so one generated answer decides a whole call.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type RawAnswer =
  | {
      readonly kind: 'reply';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: Uint8Array | string;
    }
  /** Read the request, then destroy the socket without a byte of answer. */
  | { readonly kind: 'drop' }
  /** Read the request, send the status line, headers and the first `bytes` of the body, then destroy the socket. */
  | { readonly kind: 'cut'; readonly status: number; readonly body: string; readonly bytes: number };

export interface RawReplyServer {
  readonly url: string;
  /** Sets the answer to every following request. */
  answer(a: RawAnswer): void;
  /** Requests received since the last `answer()`, with the number of body bytes each carried. */
  received(): readonly { readonly method: string; readonly url: string; readonly bodyBytes: number }[];
  close(): Promise<void>;
}

export const startRawReplyServer = async (): Promise<RawReplyServer> => {
  let current: RawAnswer = { kind: 'drop' };
  let log: { method: string; url: string; bodyBytes: number }[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
    });
    req.on('end', () => {
      log.push({ method: req.method ?? '', url: req.url ?? '', bodyBytes: n });
      const a = current;
      switch (a.kind) {
        case 'drop':
          req.socket.destroy();
          return;
        case 'cut': {
          const bytes = Buffer.from(a.body, 'utf8');
          res.writeHead(a.status, {
            'Content-Type': 'application/json',
            'Content-Length': String(bytes.length),
          });
          res.write(bytes.subarray(0, Math.min(a.bytes, bytes.length - 1)), () => req.socket.destroy());
          return;
        }
        case 'reply': {
          const body = typeof a.body === 'string' ? Buffer.from(a.body, 'utf8') : Buffer.from(a.body);
          // 1xx, 204 and 304 cannot carry a body in HTTP/1.1; Node refuses to write one.
          const bodiless = a.status < 200 || a.status === 204 || a.status === 304;
          res.writeHead(a.status, a.headers);
          res.end(bodiless ? undefined : body);
        }
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
    answer(a) {
      current = a;
      log = [];
    },
    received: () => log,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
};
