/**
 * A stretch of a file read block by block, so no decoder ever holds a whole recording: each block is a
 * fresh array the caller may keep.
 */
import { open } from 'node:fs/promises';

/** The default block: 256 KiB, a few seconds of CD-quality audio. */
export const BLOCK_BYTES = 256 * 1024;

/**
 * The bytes `[start, start + length)` of the file (or to its end, when shorter), in blocks whose size
 * is a multiple of `multipleOf` (the last may be shorter).
 */
export async function* readFileBlocks(
  path: string,
  start: number,
  length: number,
  multipleOf = 1,
  blockBytes = BLOCK_BYTES,
): AsyncGenerator<Uint8Array> {
  const size = Math.max(multipleOf, Math.floor(blockBytes / multipleOf) * multipleOf);
  const fh = await open(path, 'r');
  try {
    for (let done = 0; done < length;) {
      const want = Math.min(size, length - done);
      const buf = new Uint8Array(want);
      const { bytesRead } = await fh.read(buf, 0, want, start + done);
      if (bytesRead === 0) return;
      yield bytesRead === want ? buf : buf.subarray(0, bytesRead);
      done += bytesRead;
    }
  } finally {
    await fh.close();
  }
}

/** The file's first `n` bytes (fewer when the file is shorter) and its length. */
export const readFileHead = async (path: string, n: number): Promise<{ head: Uint8Array; size: number }> => {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const head = new Uint8Array(Math.min(n, size));
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return { head: head.subarray(0, bytesRead), size };
  } finally {
    await fh.close();
  }
};

const FIRST_HEAD_BYTES = 1 << 20;
const LONGEST_HEAD_BYTES = 64 << 20;

/**
 * Parses a header from the file's first bytes: 1 MiB at first, eight times more each time `parse`
 * answers null (the samples start further in, after long metadata), up to 64 MiB.
 */
export const parseFileHead = async <T>(
  path: string,
  parse: (head: Uint8Array, size: number) => T | null,
  tooFar: T,
): Promise<T> => {
  for (let want = FIRST_HEAD_BYTES; ; want *= 8) {
    const { head, size } = await readFileHead(path, want);
    const parsed = parse(head, size);
    if (parsed !== null) return parsed;
    if (size <= head.length || want >= LONGEST_HEAD_BYTES) return tooFar;
  }
};
