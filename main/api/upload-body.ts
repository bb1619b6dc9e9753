/**
 * Builds `POST /recordings` bodies as a stream: the JSON fields, then the audio Base64-encoded chunk by
 * chunk, then the closing bytes. Memory stays at a few chunks whatever the file size, and the exact
 * length is known in advance. Chunks are produced only as the transport asks for them, so
 * `bytesDelivered` tells how much of the body the transport has taken.
 */
import { open, stat } from 'node:fs/promises';

/** Audio to upload: its size and a way to read it, from the start, as many times as needed. */
export interface AudioSource {
  readonly sizeBytes: number;
  open(): AsyncIterable<Uint8Array>;
}

/** 192 KiB: a multiple of 3, so chunk boundaries rarely need carrying. */
const CHUNK = 3 * 64 * 1024;

/**
 * Reads the file into one reused buffer. Each yielded view is valid only until the next one is asked
 * for, which is how base64Chunks consumes it (it copies the 0–2 carried bytes).
 */
export const fileAudioSource = async (path: string): Promise<AudioSource> => {
  const { size } = await stat(path);
  return {
    sizeBytes: size,
    async *open() {
      const handle = await open(path, 'r');
      const buf = Buffer.allocUnsafe(CHUNK);
      try {
        for (;;) {
          const { bytesRead } = await handle.read(buf, 0, CHUNK, null);
          if (bytesRead === 0) return;
          yield buf.subarray(0, bytesRead);
        }
      } finally {
        await handle.close();
      }
    },
  };
};

export const bytesAudioSource = (bytes: Uint8Array): AudioSource => ({
  sizeBytes: bytes.byteLength,
  async *open() {
    for (let i = 0; i < bytes.byteLength; i += CHUNK)
      yield bytes.subarray(i, Math.min(bytes.byteLength, i + CHUNK));
  },
});

const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/** Base64-encodes an async byte stream, carrying the 0–2 bytes that do not fill a 3-byte group. */
export async function* base64Chunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const piece of source) {
    const buf: Buffer = carry.length
      ? Buffer.concat([carry, piece])
      : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    const whole = buf.length - (buf.length % 3);
    if (whole > 0) yield Buffer.from(buf.subarray(0, whole).toString('base64'), 'latin1');
    carry = Buffer.from(buf.subarray(whole));
  }
  if (carry.length) yield Buffer.from(carry.toString('base64'), 'latin1');
}

export interface JsonUploadBody {
  readonly contentLength: number;
  /** The body's bytes, read afresh on every call (one call per attempt). */
  chunks(): AsyncGenerator<Uint8Array>;
  /** Bytes the transport has taken from the current `chunks()` so far. */
  bytesDelivered(): number;
}

/**
 * `fields` are the request's other members; they are serialised first and `audio` is appended last,
 * so the prefix is `{...,"audio":"` and the suffix `"}`.
 */
export const jsonUploadBody = (fields: Record<string, unknown>, audio: AudioSource): JsonUploadBody => {
  const skeleton = JSON.stringify({ ...fields, audio: '' });
  const prefix = Buffer.from(skeleton.slice(0, -2), 'utf8');
  const suffix = Buffer.from(skeleton.slice(-2), 'utf8');
  let delivered = 0;
  return {
    contentLength: prefix.length + base64Length(audio.sizeBytes) + suffix.length,
    bytesDelivered: () => delivered,
    async *chunks() {
      delivered = 0;
      delivered += prefix.length;
      yield prefix;
      for await (const c of base64Chunks(audio.open())) {
        delivered += c.byteLength;
        yield c;
      }
      delivered += suffix.length;
      yield suffix;
    },
  };
};
