/**
 * A file being written (TextSink): every piece arrives in order and whole, whatever its size and
 * characters, the count and SHA-256 it reports are those of the bytes on disk, and the buffers it
 * reuses for a file never overwrite a chunk a stream still holds.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createGzip, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { openWriteFile, TextSink } from '../../../main/export/csv-sink';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Pieces of every kind: ASCII, two-, three- and four-byte UTF-8, and pieces far larger than a chunk. */
const pieces = (): string[] => {
  const out: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    out.push(`P-${i},Zoë,参加者,🎙️,${(i * 1.37).toString()}`);
    if (i % 9_999 === 0) out.push('x'.repeat(300_000), 'é'.repeat(100_000));
    out.push('\r\n');
  }
  return out;
};

/** Writes as the export does (text, pieces of a line and ready-made bytes): on and on, waiting when the stream asks and letting the event loop turn now and then (so chunks are called back meanwhile). */
const writeAll = async (sink: TextSink, all: string[]) => {
  for (let i = 0; i < all.length; i++) {
    if (i % 5 === 4) sink.putBytes(Buffer.from(all[i]!, 'utf8'));
    else if (i % 3 === 0) sink.write(all[i]!);
    else sink.piece(all[i]!);
    if (sink.blocked) await sink.ready();
    if (i % 500 === 0) await new Promise((r) => setTimeout(r, 2));
  }
  return sink.close('data', all.length);
};

describe('a file being written', () => {
  it('holds exactly the text written, with its byte count and SHA-256, in a real file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vs-sink-'));
    dirs.push(dir);
    const all = pieces();
    const expected = Buffer.from(all.join(''), 'utf8');
    const file = await writeAll(new TextSink('t.csv', openWriteFile(join(dir, 't.csv'))), all);
    const onDisk = readFileSync(join(dir, 't.csv'));
    expect(onDisk.equals(expected)).toBe(true);
    expect(file.bytes).toBe(expected.length);
    expect(file.sha256).toBe(createHash('sha256').update(expected).digest('hex'));
  });

  it('never reuses a chunk that a stream keeps after calling back', async () => {
    const kept: Buffer[] = [];
    // A stream that keeps references to the chunks it was given and takes its time, as a slow or buffering stream may.
    const keeper = new Writable({
      highWaterMark: 128 * 1024,
      write(chunk: Buffer, _enc, cb) {
        kept.push(chunk);
        setTimeout(cb, 1);
      },
    });
    const all = pieces();
    const file = await writeAll(new TextSink('t.csv', keeper), all);
    const got = Buffer.concat(kept);
    expect(got.equals(Buffer.from(all.join(''), 'utf8'))).toBe(true);
    expect(file.bytes).toBe(got.length);
  });

  it('through zlib (a workbook sheet), reuses a handful of buffers and zlib gets exactly the text', async () => {
    const deflate = createGzip({ level: 3 });
    const out: Buffer[] = [];
    deflate.on('data', (d: Buffer) => out.push(d));
    const ended = new Promise((r) => deflate.on('end', r));
    // Every chunk's memory, as zlib is handed it.
    const memories = new Set<ArrayBufferLike>();
    const write = deflate.write.bind(deflate) as (chunk: Buffer, cb?: (e?: Error | null) => void) => boolean;
    deflate.write = ((chunk: Buffer, cb?: (e?: Error | null) => void) => {
      memories.add(chunk.buffer);
      return write(chunk, cb);
    }) as typeof deflate.write;
    const all = pieces();
    const file = await writeAll(new TextSink('sheet', deflate, null), all);
    await ended;
    const text = Buffer.from(all.join(''), 'utf8');
    expect(gunzipSync(Buffer.concat(out)).equals(text)).toBe(true);
    expect(file.bytes).toBe(text.length);
    // Some 40 chunks in all (the five large pieces each a buffer of their own); a new buffer for each chunk failed here.
    expect(memories.size).toBeLessThan(16);
  });
});
