/**
 * Reading request bodies with a size cap and writing answers, for the sandbox's node:http server.
 * Every answer carries `X-Voicescope-Simulated: 1`.
 */
import type http from 'node:http';

export const SIMULATED_HEADERS = { 'X-Voicescope-Simulated': '1', 'Cache-Control': 'no-store' } as const;

/**
 * Bytes discarded after a refusal before the connection is cut (a client that never stops sending): far
 * more than twice the largest body the sandbox accepts (an upload of 50 MB of audio, about 67 MB), so a
 * client that writes a too-large body whole before it reads still finds the answer waiting.
 */
const MAX_DISCARD_BYTES = 512 * 1024 * 1024;

export type BodyRead =
  | { readonly kind: 'ok'; readonly bytes: Buffer }
  /** The body is larger than the cap; nothing more is buffered, the rest is read and discarded. */
  | { readonly kind: 'too_large'; readonly declaredBytes: number | null }
  /** The client went away before the body ended. */
  | { readonly kind: 'aborted' };

const declaredLength = (req: http.IncomingMessage): number | null => {
  const v = req.headers['content-length'];
  if (v === undefined || !/^\d+$/.test(v)) return null;
  return Number(v);
};

/** Keeps reading and dropping whatever else arrives, so the connection stays usable; cuts it past a hard limit. */
const discardRest = (req: http.IncomingMessage, alreadyDiscarded = 0): void => {
  let n = alreadyDiscarded;
  req.removeAllListeners('data');
  req.on('data', (c: Buffer) => {
    n += c.length;
    if (n > MAX_DISCARD_BYTES) req.socket.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
};

/**
 * Reads the body, buffering at most `cap` bytes. As soon as the declared length or the bytes received
 * exceed the cap it resolves `too_large` and drops the rest as it arrives.
 */
export const readBody = (req: http.IncomingMessage, cap: number): Promise<BodyRead> =>
  new Promise((resolve) => {
    const declared = declaredLength(req);
    if (declared !== null && declared > cap) {
      discardRest(req);
      resolve({ kind: 'too_large', declaredBytes: declared });
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (r: BodyRead) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    req.on('data', (c: Buffer) => {
      if (settled) return;
      total += c.length;
      if (total > cap) {
        chunks.length = 0;
        discardRest(req, total);
        settle({ kind: 'too_large', declaredBytes: declared });
        return;
      }
      chunks.push(c);
    });
    req.on('end', () =>
      settle({ kind: 'ok', bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) }),
    );
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => {
      if (!req.complete) settle({ kind: 'aborted' });
    });
  });

/** Reads and drops the whole body; resolves when it has ended (or the client went away). */
export const discardBody = (req: http.IncomingMessage): Promise<void> =>
  new Promise((resolve) => {
    if (req.complete) return resolve();
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > MAX_DISCARD_BYTES) req.socket.destroy();
    });
    req.on('end', () => resolve());
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.resume();
  });

export const sendText = (
  res: http.ServerResponse,
  status: number,
  body: string,
  contentType: string,
  headers: Readonly<Record<string, string>> = {},
): void => {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, {
    ...SIMULATED_HEADERS,
    'Content-Type': contentType,
    'Content-Length': String(bytes.length),
    ...headers,
  });
  const req = res.req as http.IncomingMessage | undefined;
  if (!req || req.readableEnded || req.destroyed) {
    res.end(bytes);
    return;
  }
  // Answered before the body ended (a refusal): the answer goes out now, but the response ends, and
  // Node may close the connection, only once the rest of the body has been read and dropped. Closing
  // earlier would cut a client still sending, which then never reads the answer (a broken pipe).
  res.write(bytes);
  if (req.listenerCount('data') === 0) discardRest(req);
  const end = () => res.end();
  req.once('end', end);
  req.once('close', end);
};

export const sendJson = (
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void => sendText(res, status, JSON.stringify(body), 'application/json', headers);
