/**
 * A client that writes its whole body before it reads (the simplest HTTP client there is) still reads the
 * sandbox's 413 for an upload far over the limit: the sandbox reads and drops at least twice the limit
 * before it closes, instead of cutting the connection under the client's feet (a broken pipe).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BODY_BYTES } from '../../../main/sandbox/server';
import { KEYS, startTestSandbox, type TestSandbox } from './helpers';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.sb.close();
});

/** Sends the request line, headers and the whole body, and only then reads; resolves what it read or how it failed. */
const sendAllThenRead = (
  url: string,
  bodyBytes: number,
): Promise<{ answer: string; writeError: string | null }> =>
  new Promise((resolve) => {
    const { hostname, port, host } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let writeError: string | null = null;
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      writeError ??= e.code ?? e.message;
    });
    socket.on('close', () => resolve({ answer: Buffer.concat(received).toString('latin1'), writeError }));
    socket.pause(); // nothing is read until the whole body is written
    socket.write(
      `POST /v1.3/recordings HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEYS.active}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${bodyBytes}\r\nConnection: close\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    let left = bodyBytes;
    const writeMore = (): void => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          socket.once('drain', writeMore);
          return;
        }
      }
      socket.resume();
    };
    writeMore();
  });

describe('413 for a body far over the limit, sent whole before reading', () => {
  it('a 72 MB upload reads 413 FileTooLarge, not a broken pipe', async () => {
    expect(72_000_000).toBeGreaterThan(MAX_UPLOAD_BODY_BYTES);
    const { answer, writeError } = await sendAllThenRead(t.sb.url, 72_000_000);
    expect(writeError).toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('FileTooLarge');
  }, 60_000);

  it('a body of twice the limit is still read to the end before the answer is final', async () => {
    const { answer, writeError } = await sendAllThenRead(t.sb.url, 2 * MAX_UPLOAD_BODY_BYTES);
    expect(writeError).toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  }, 60_000);
});
