/**
 * AIFF and AIFF-C, from Apple's "Audio Interchange File Format: AIFF, Version 1.3" and its AIFF-C
 * draft: an IFF `FORM` of type `AIFF` or `AIFC` whose chunks are big-endian and padded to even
 * lengths. `COMM` gives the channels, the frames, the sample size and the rate (an 80-bit IEEE 754
 * extended number); AIFF-C adds the compression type. `SSND` holds the samples after its offset and
 * block-size fields. Samples are signed, big-endian and left-justified in whole bytes. AIFF-C types:
 * 'NONE' and 'twos' (as AIFF), 'sowt' (little-endian), 'in24', 'in32', 'fl32', 'fl64' (big-endian
 * IEEE float), 'alaw' and 'ulaw' (G.711).
 */
import { err, ok, type Result } from '../../../shared/result';
import type { AudioDecoder, DecodableFormat, DecodeProblem } from './decoder';
import { parseFileHead } from './file-blocks';
import { interleavedDecoder } from './interleaved-decoder';
import type { SampleEncoding } from './pcm-samples';

export const AIFF_DECODER = 'Voicescope AIFF reader (AIFF 1.3, AIFF-C)';

const text = (b: Uint8Array, at: number): string =>
  String.fromCharCode(b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0);

const recognise = (head: Uint8Array): boolean =>
  text(head, 0) === 'FORM' && (text(head, 8) === 'AIFF' || text(head, 8) === 'AIFC');

/** An 80-bit IEEE 754 extended number: sign, 15-bit exponent (bias 16383), 64-bit mantissa with its integer bit. */
export const readExtended = (dv: DataView, at: number): number => {
  const signExp = dv.getUint16(at);
  const mantissa = dv.getUint32(at + 2) * 2 ** 32 + dv.getUint32(at + 6);
  const exp = signExp & 0x7fff;
  if (exp === 0 && mantissa === 0) return 0;
  const value = mantissa * 2 ** (exp - 16383 - 63);
  return signExp & 0x8000 ? -value : value;
};

const corrupt = (detail: string): Result<never, DecodeProblem> => err({ code: 'corrupt', detail });

interface Comm {
  readonly channels: number;
  readonly frames: number;
  readonly bits: number;
  readonly rate: number;
  readonly compression: string;
}

const encodingFor = (comm: Comm): SampleEncoding | null => {
  const bytes = Math.ceil(comm.bits / 8);
  const int = (n: number, bigEndian: boolean): SampleEncoding | null =>
    n >= 1 && n <= 4 ? { kind: 'int', bytes: n as 1 | 2 | 3 | 4, bigEndian, unsigned8: false } : null;
  switch (comm.compression) {
    case 'NONE':
    case 'twos':
      return int(bytes, true);
    case 'sowt':
      return int(bytes, false);
    case 'in24':
      return int(3, true);
    case 'in32':
      return int(4, true);
    case 'fl32':
    case 'FL32':
      return { kind: 'float', bytes: 4, bigEndian: true };
    case 'fl64':
    case 'FL64':
      return { kind: 'float', bytes: 8, bigEndian: true };
    case 'alaw':
    case 'ALAW':
      return { kind: 'alaw', bytes: 1 };
    case 'ulaw':
    case 'ULAW':
      return { kind: 'mulaw', bytes: 1 };
    default:
      return null;
  }
};

const CODEC_NAMES: Readonly<Record<string, string>> = {
  alaw: 'alaw',
  ALAW: 'alaw',
  ulaw: 'mulaw',
  ULAW: 'mulaw',
};
const codecOf = (enc: SampleEncoding, compression: string): string =>
  CODEC_NAMES[compression] ?? (enc.kind === 'float' ? 'float' : 'pcm');

const readComm = (b: Uint8Array, dv: DataView, body: number, size: number, aifc: boolean): Comm | null =>
  size < 18 || body + 18 > b.length
    ? null
    : {
        channels: dv.getInt16(body),
        frames: dv.getUint32(body + 2),
        bits: dv.getInt16(body + 6),
        rate: readExtended(dv, body + 8),
        compression: aifc && size >= 22 ? text(b, body + 18) : 'NONE',
      };

interface Found {
  readonly comm: Comm;
  readonly dataOffset: number;
  readonly dataBytes: number;
}

/** Walks the chunks for COMM and SSND; null when the head ends before both are found. */
const walk = (b: Uint8Array, size: number): Result<Found, DecodeProblem> | null => {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const aifc = text(b, 8) === 'AIFC';
  let comm: Comm | null = null;
  let ssnd: { offset: number; bytes: number } | null = null;
  let off = 12;
  while (off + 8 <= b.length && (comm === null || ssnd === null)) {
    const id = text(b, off);
    const len = dv.getUint32(off + 4);
    const body = off + 8;
    if (id === 'COMM') {
      comm = readComm(b, dv, body, len, aifc);
      if (comm === null) return corrupt("This AIFF file's COMM chunk is cut short, so the file is damaged.");
    } else if (id === 'SSND' && body + 8 <= b.length) {
      const start = body + 8 + dv.getUint32(body);
      ssnd = { offset: start, bytes: Math.max(0, Math.min(body + len, size) - start) };
    }
    off = body + len + (len % 2);
  }
  if (comm !== null && ssnd !== null) return ok({ comm, dataOffset: ssnd.offset, dataBytes: ssnd.bytes });
  if (off + 8 <= size && b.length < size) return null;
  return corrupt(
    comm === null
      ? 'This AIFF file has no COMM chunk, so its sample rate and channels are unknown.'
      : 'This AIFF file has no sound data (SSND chunk); the file may have been cut short while it was written.',
  );
};

const open = async (path: string): Promise<Result<AudioDecoder, DecodeProblem>> => {
  const found = await parseFileHead(
    path,
    walk,
    corrupt('This AIFF file has no sound data in its first 64 MB.'),
  );
  if (!found.ok) return found;
  const { comm, dataOffset, dataBytes } = found.value;
  if (comm.channels < 1 || !(comm.rate > 0))
    return corrupt('This AIFF file says it has no channels or a sample rate of 0, so it is damaged.');
  const enc = encodingFor(comm);
  if (enc === null)
    return err({
      code: 'no_decoder',
      detail: `This AIFF-C file is compressed with '${comm.compression}', which Voicescope does not decode; uncompressed, float, A-law and µ-law AIFF can be read.`,
    });
  const frames = Math.min(comm.frames, Math.floor(dataBytes / (enc.bytes * comm.channels)));
  return ok(
    interleavedDecoder(
      path,
      { dataOffset, frames, encoding: enc },
      {
        container: 'aiff',
        codec: codecOf(enc, comm.compression),
        sampleRateHz: comm.rate,
        channels: comm.channels,
        decoder: AIFF_DECODER,
      },
    ),
  );
};

export const AIFF_FORMAT: DecodableFormat = { name: 'AIFF', recognise, open };
