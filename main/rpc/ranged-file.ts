/**
 * Serving a file with HTTP byte ranges (RFC 9110 §14), so a media element starts playing a long
 * recording at once and seeks without reading it all: one range per request (a multi-range request is
 * answered with the whole file, which the RFC allows), `bytes=a-b`, `bytes=a-` and `bytes=-n`; a range
 * that starts past the end is 416. Used by browser mode's bridge (Node's http) and, through
 * `rangeOf`, by the Electron shell's app:// handler.
 */
import { createReadStream } from 'node:fs';
import type http from 'node:http';

/** A byte range of a file, both ends included. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** What a Range header asks of a file of `size` bytes: the whole file (null), one range, or nothing it holds. */
export const rangeOf = (
  header: string | null | undefined,
  size: number,
): ByteRange | null | 'unsatisfiable' => {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null; // several ranges, or another unit: the whole file
  const [a, b] = [m[1]!, m[2]!];
  if (a === '' && b === '') return null;
  if (a === '') {
    const n = Number(b);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
};

/** The headers of an answer to `range` of a file of `size` bytes, and its status. */
export const rangedHeaders = (
  range: ByteRange | null | 'unsatisfiable',
  size: number,
  contentType: string,
): { status: number; headers: Record<string, string> } => {
  if (range === 'unsatisfiable')
    return { status: 416, headers: { 'Content-Range': `bytes */${size}`, 'Accept-Ranges': 'bytes' } };
  const base = { 'Content-Type': contentType, 'Accept-Ranges': 'bytes' };
  if (range === null) return { status: 200, headers: { ...base, 'Content-Length': String(size) } };
  return {
    status: 206,
    headers: {
      ...base,
      'Content-Length': String(range.end - range.start + 1),
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    },
  };
};

/** Answers a GET or HEAD for a file with ranges; a file that vanishes mid-way ends this response only. */
export const sendRangedFile = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  file: { path: string; contentType: string; sizeBytes: number },
): void => {
  const range = rangeOf(req.headers.range, file.sizeBytes);
  const { status, headers } = rangedHeaders(range, file.sizeBytes, file.contentType);
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || status === 416 || file.sizeBytes === 0) {
    res.end();
    return;
  }
  const stream = createReadStream(
    file.path,
    range && range !== 'unsatisfiable' ? { start: range.start, end: range.end } : {},
  );
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
};
