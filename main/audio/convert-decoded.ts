/**
 * The optional conversion for every recording the product decodes (FLAC, AIFF, CAF, Ogg, WebM, MP3,
 * MP4 and WAV in any encoding): the same rules as the WAV conversion (one channel sent, 1-based, 'auto'
 * the first, 'mix' the mean only when asked; resampled to 16 kHz; 16-bit PCM WAV), fed from the
 * decoder's chunks through `mono16k-stream.ts`. `convertDecodedToFile` writes the copy to disk as it is
 * made and hashes it from the disk, so a recording of any length converts in bounded memory; the
 * conversion names what decoded the file, for the recording's provenance.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ConversionView } from '../../shared/study';
import type { AudioDecoder } from './decode/decoder';
import type { Conversion } from './convert-wav';
import {
  CONVERTED_RATE_HZ,
  pcm16MonoWavHeader,
  streamMono16k,
  type Mono16kStreamResult,
} from './mono16k-stream';

/** What decoded the original: the decoder (a package with its version, or this project's reader), container and codec. */
export interface DecodedBy {
  readonly decoder: string;
  readonly container: string;
  readonly codec: string;
}

export interface DecodedConversion extends Conversion {
  readonly decodedBy: DecodedBy;
}

/** A converted copy written to disk: its hash and size instead of its bytes. */
export interface ConvertedFile extends Omit<Conversion, 'bytes'> {
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  /** Its length in seconds (at 16 kHz). */
  readonly durationSeconds: number;
  readonly decodedBy: DecodedBy;
}

/** What the recording's verdict keeps of its conversion: the copy's hash, the channel sent, the rate, what decoded it. */
export const conversionRecord = (c: ConvertedFile): ConversionView => ({
  sha256: c.sha256,
  channel: c.channel,
  resampledFromHz: c.resampledFromHz,
  decodedBy: c.decodedBy,
});

const decodedByOf = ({ info }: AudioDecoder): DecodedBy => ({
  decoder: info.decoder,
  container: info.container,
  codec: info.codec,
});

/** Converts a decoded recording to mono 16 kHz 16-bit PCM WAV in memory; throws the decoder's DecodeFailure on damage. */
export const convertDecodedToMono16k = async (
  decoder: AudioDecoder,
  channel: 'auto' | 'mix' | number = 'auto',
): Promise<DecodedConversion> => {
  const parts: Uint8Array[] = [];
  const r = await streamMono16k(decoder.chunks(), decoder.info, channel, (p) => {
    parts.push(p);
  });
  const bytes = new Uint8Array(44 + r.frames * 2);
  bytes.set(pcm16MonoWavHeader(r.frames, CONVERTED_RATE_HZ));
  let at = 44;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  const { channel: sent, mixedDown, resampledFromHz } = r;
  return { bytes, channel: sent, mixedDown, resampledFromHz, decodedBy: decodedByOf(decoder) };
};

/** Writes go out in blocks of this size, so a converted copy is written in a few hundred system calls per hour. */
const WRITE_BYTES = 1 << 20;

export const sha256OfFile = async (path: string): Promise<string> => {
  const hash = createHash('sha256');
  for await (const block of createReadStream(path, { highWaterMark: WRITE_BYTES }))
    hash.update(block as Buffer);
  return hash.digest('hex');
};

/**
 * Converts a decoded recording to mono 16 kHz 16-bit PCM WAV at `outPath`, block by block (the header's
 * lengths written last), then hashes the copy from the disk. Throws the decoder's DecodeFailure on damage
 * (the partial copy is left for the caller to remove).
 */
export const convertDecodedToFile = async (
  decoder: AudioDecoder,
  channel: 'auto' | 'mix' | number,
  outPath: string,
): Promise<ConvertedFile> => {
  const fh = await open(outPath, 'w');
  let r: Mono16kStreamResult;
  try {
    let pending = new Uint8Array(WRITE_BYTES);
    let filled = 0;
    let position = 44;
    const flush = async () => {
      await fh.write(pending, 0, filled, position);
      position += filled;
      filled = 0;
    };
    await fh.write(pcm16MonoWavHeader(0, CONVERTED_RATE_HZ), 0, 44, 0);
    r = await streamMono16k(decoder.chunks(), decoder.info, channel, async (pcm) => {
      if (filled + pcm.length > pending.length) await flush();
      if (pcm.length > pending.length) pending = new Uint8Array(pcm.length);
      pending.set(pcm, filled);
      filled += pcm.length;
    });
    await flush();
    await fh.write(pcm16MonoWavHeader(r.frames, CONVERTED_RATE_HZ), 0, 44, 0);
  } finally {
    await fh.close();
  }
  const { channel: sent, mixedDown, resampledFromHz, frames } = r;
  return {
    path: outPath,
    sha256: await sha256OfFile(outPath),
    sizeBytes: 44 + frames * 2,
    durationSeconds: frames / CONVERTED_RATE_HZ,
    channel: sent,
    mixedDown,
    resampledFromHz,
    decodedBy: decodedByOf(decoder),
  };
};
