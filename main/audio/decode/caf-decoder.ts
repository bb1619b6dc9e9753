/**
 * CAF holding uncompressed audio, from Apple's "Core Audio Format Specification 1.0": a `caff` file
 * header, then chunks of a four-character type and a 64-bit big-endian size. `desc` gives the rate
 * (a 64-bit float), the format ID, its flags and the packet layout; `data` holds a 4-byte edit count,
 * then the samples (a size of -1 means "to the end of the file"). Linear PCM ('lpcm') is big-endian
 * integer unless its flags say float (bit 0) or little-endian (bit 1); 'alaw' and 'ulaw' are G.711.
 * CAF with AAC and other compressed formats is decoded elsewhere; here it is refused.
 */
import { err, ok, type Result } from '../../../shared/result';
import type { AudioDecoder, DecodableFormat, DecodeProblem } from './decoder';
import { parseFileHead } from './file-blocks';
import { interleavedDecoder } from './interleaved-decoder';
import type { SampleEncoding } from './pcm-samples';

export const CAF_DECODER = 'Voicescope CAF reader (Core Audio Format 1.0, linear PCM and G.711)';

const FLAG_FLOAT = 1;
const FLAG_LITTLE_ENDIAN = 2;

const text = (b: Uint8Array, at: number): string =>
  String.fromCharCode(b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0);

interface Desc {
  readonly rate: number;
  readonly formatId: string;
  readonly flags: number;
  readonly bytesPerPacket: number;
  readonly channels: number;
  readonly bits: number;
}

const corrupt = (detail: string): Result<never, DecodeProblem> => err({ code: 'corrupt', detail });

/** The sample encoding of an uncompressed CAF, or null when its samples are compressed. */
export const cafEncoding = (d: Desc): SampleEncoding | null => {
  if (d.formatId === 'alaw') return { kind: 'alaw', bytes: 1 };
  if (d.formatId === 'ulaw') return { kind: 'mulaw', bytes: 1 };
  if (d.formatId !== 'lpcm' || d.channels < 1) return null;
  const bytes = d.bytesPerPacket / d.channels;
  const bigEndian = (d.flags & FLAG_LITTLE_ENDIAN) === 0;
  if (d.flags & FLAG_FLOAT) return bytes === 4 || bytes === 8 ? { kind: 'float', bytes, bigEndian } : null;
  return Number.isInteger(bytes) && bytes >= 1 && bytes <= 4
    ? { kind: 'int', bytes: bytes as 1 | 2 | 3 | 4, bigEndian, unsigned8: false }
    : null;
};

interface Found {
  readonly desc: Desc;
  readonly dataOffset: number;
  readonly dataBytes: number;
}

const walk = (b: Uint8Array, size: number): Result<Found, DecodeProblem> | null => {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let desc: Desc | null = null;
  let off = 8;
  while (off + 12 <= b.length) {
    const id = text(b, off);
    const len = Number(dv.getBigInt64(off + 4));
    const body = off + 12;
    if (id === 'desc' && body + 32 <= b.length) {
      desc = readDesc(b, dv, body);
    } else if (id === 'data') {
      if (desc === null)
        return corrupt('This CAF file has its audio before its description, so it is damaged.');
      const end = len < 0 ? size : Math.min(size, body + len);
      return ok({ desc, dataOffset: body + 4, dataBytes: Math.max(0, end - body - 4) });
    }
    if (len < 0) break;
    off = body + len;
  }
  if (off + 12 <= size && b.length < size) return null;
  return corrupt(
    'This CAF file has no audio data chunk; the file may have been cut short while it was written.',
  );
};

const open = async (path: string): Promise<Result<AudioDecoder, DecodeProblem>> => {
  const found = await parseFileHead(
    path,
    walk,
    corrupt('This CAF file has no audio data in its first 64 MB.'),
  );
  if (!found.ok) return found;
  const { desc, dataOffset, dataBytes } = found.value;
  const enc = cafEncoding(desc);
  if (enc === null)
    return err({
      code: 'no_decoder',
      detail: `This CAF file holds '${desc.formatId.trim()}' audio, which this reader does not decode; it reads uncompressed (linear PCM), A-law and µ-law CAF.`,
    });
  if (!(desc.rate > 0)) return corrupt('This CAF file says its sample rate is 0 Hz, so it is damaged.');
  const frames = Math.floor(dataBytes / (enc.bytes * desc.channels));
  return ok(
    interleavedDecoder(
      path,
      { dataOffset, frames, encoding: enc },
      {
        container: 'caf',
        codec: enc.kind === 'int' ? 'pcm' : enc.kind,
        sampleRateHz: desc.rate,
        channels: desc.channels,
        decoder: CAF_DECODER,
      },
    ),
  );
};

const readDesc = (b: Uint8Array, dv: DataView, body: number): Desc => ({
  rate: dv.getFloat64(body),
  formatId: text(b, body + 8),
  flags: dv.getUint32(body + 12),
  bytesPerPacket: dv.getUint32(body + 16),
  channels: dv.getUint32(body + 24),
  bits: dv.getUint32(body + 28),
});

/** Uncompressed CAF only (the specification puts `desc` first): a CAF with AAC is left to the next format. */
const recognise = (head: Uint8Array): boolean =>
  text(head, 0) === 'caff' &&
  text(head, 8) === 'desc' &&
  head.length >= 52 &&
  cafEncoding(readDesc(head, new DataView(head.buffer, head.byteOffset, head.byteLength), 20)) !== null;

export const CAF_FORMAT: DecodableFormat = { name: 'CAF', recognise, open };
