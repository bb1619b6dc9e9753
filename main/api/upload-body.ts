/**
 * Streams `POST /recordings` bodies: the JSON fields, then the audio Base64-encoded chunk by chunk,
 * then the closing bytes. Memory stays at a few chunks whatever the file size, and the exact length is
 * known in advance. The stream has no read-ahead (highWaterMark 0), so `bytesDelivered` counts only
 * what the HTTP stack actually pulled: 0 means nothing of the body can have left the machine.
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
    for (let i = 0; i < bytes.byteLength; i += CHUNK) yield bytes.subarray(i, Math.min(bytes.byteLength, i + CHUNK));
  },
});

export const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/** Base64-encodes an async byte stream, carrying the 0–2 bytes that do not fill a 3-byte group. */
export async function* base64Chunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const piece of source) {
    const buf: Buffer = carry.length ? Buffer.concat([carry, piece]) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    const whole = buf.length - (buf.length % 3);
    if (whole > 0) yield Buffer.from(buf.subarray(0, whole).toString('base64'), 'latin1');
    carry = Buffer.from(buf.subarray(whole));
  }
  if (carry.length) yield Buffer.from(carry.toString('base64'), 'latin1');
}

export interface StreamedBody {
  readonly stream: ReadableStream<Uint8Array>;
  readonly contentLength: number;
  /** Bytes of the body the HTTP stack has pulled so far. */
  bytesDelivered(): number;
}

/**
 * `fields` are the request's other members; they are serialised first and `audio` is appended last,
 * so the prefix is `{...,"audio":"` and the suffix `"}`.
 */
export const streamedJsonBody = (fields: Record<string, unknown>, audio: AudioSource): StreamedBody => {
  const skeleton = JSON.stringify({ ...fields, audio: '' });
  const prefix = Buffer.from(skeleton.slice(0, -2), 'utf8');
  const suffix = Buffer.from(skeleton.slice(-2), 'utf8');
  let delivered = 0;
  let iterator: AsyncIterator<Uint8Array> | null = null;
  let phase: 'prefix' | 'audio' | 'done' = 'prefix';

  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (phase === 'prefix') {
          phase = 'audio';
          iterator = base64Chunks(audio.open())[Symbol.asyncIterator]();
          delivered += prefix.length;
          controller.enqueue(new Uint8Array(prefix));
          return;
        }
        if (phase === 'audio' && iterator) {
          const next = await iterator.next();
          if (!next.done) {
            delivered += next.value.byteLength;
            controller.enqueue(next.value);
            return;
          }
          phase = 'done';
          delivered += suffix.length;
          controller.enqueue(new Uint8Array(suffix));
          controller.close();
        }
      },
      async cancel() {
        await iterator?.return?.();
      },
    },
    { highWaterMark: 0 },
  );

  return {
    stream,
    contentLength: prefix.length + base64Length(audio.sizeBytes) + suffix.length,
    bytesDelivered: () => delivered,
  };
};
