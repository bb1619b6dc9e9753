/**
 * FLAC, written from the IETF specification (RFC 9639, "Free Lossless Audio Codec"): the `fLaC` marker,
 * the metadata blocks (STREAMINFO gives the rate, channels, bit depth, the total samples and the
 * largest frame), then the frames, decoded one at a time (flac-frame.ts) from a buffer refilled from the
 * file, so memory stays bounded whatever the recording's length. A frame whose checksum fails stops the
 * decode with a problem in a researcher's words.
 */
import { err, ok, type Result } from '../../../shared/result';
import {
  DecodeFailure,
  type AudioDecoder,
  type DecodableFormat,
  type DecodeProblem,
  type PcmChunk,
} from './decoder';
import { readFileBlocks, readFileHead } from './file-blocks';
import { id3v2TagEnd, isFlacAfterId3 } from '../id3-tag';
import { OutOfData } from './flac-bits';
import { decodeFrame, isFrameSync, type StreamDefaults } from './flac-frame';
import { FlacDamage } from './flac-subframe';

export const FLAC_DECODER = 'Voicescope FLAC decoder (RFC 9639)';

const READ_BYTES = 1 << 20;

/** "fLaC" at the start, or after an ID3v2 tag some taggers put before it. */
const recognise = (head: Uint8Array): boolean =>
  (head[0] === 0x66 && head[1] === 0x4c && head[2] === 0x61 && head[3] === 0x43) || isFlacAfterId3(head);

interface StreamInfo extends StreamDefaults {
  readonly channels: number;
  readonly totalSamples: number;
  readonly maxFrameBytes: number;
  /** Where the first frame starts. */
  readonly framesOffset: number;
}

const corrupt = (detail: string): Result<never, DecodeProblem> => err({ code: 'corrupt', detail });

/** STREAMINFO (section 8.2) and the end of the metadata; null when `b` ends before the last block. */
const readMetadata = (b: Uint8Array): Result<StreamInfo, DecodeProblem> | null => {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let off = id3v2TagEnd(b) + 4;
  let info: Omit<StreamInfo, 'framesOffset'> | null = null;
  for (;;) {
    if (off + 4 > b.length) return null;
    const last = (b[off]! & 0x80) !== 0;
    const type = b[off]! & 0x7f;
    const len = (b[off + 1]! << 16) | (b[off + 2]! << 8) | b[off + 3]!;
    const body = off + 4;
    if (type === 0) {
      if (len < 34)
        return corrupt("This FLAC file's stream information block is cut short, so it is damaged.");
      if (body + 34 > b.length) return null;
      const packed = dv.getUint32(body + 10);
      info = {
        maxFrameBytes: (b[body + 7]! << 16) | (b[body + 8]! << 8) | b[body + 9]!,
        sampleRateHz: packed >>> 12,
        channels: ((packed >>> 9) & 0x07) + 1,
        bitDepth: ((packed >>> 4) & 0x1f) + 1,
        totalSamples: (packed & 0x0f) * 2 ** 32 + dv.getUint32(body + 14),
      };
    }
    off = body + len;
    if (last) break;
  }
  if (info === null)
    return corrupt('This FLAC file has no stream information block, so its format is unknown.');
  if (info.sampleRateHz === 0)
    return corrupt('This FLAC file says its sample rate is 0 Hz, so it is damaged.');
  return ok({ ...info, framesOffset: off });
};

/** A frame's integer samples as floats in [-1, 1]: divided by 2^(bit depth − 1). */
const toChunk = (channels: readonly Float64Array[], bitDepth: number): PcmChunk => {
  const scale = 1 / 2 ** (bitDepth - 1);
  return {
    channels: channels.map((c) => {
      const out = new Float32Array(c.length);
      for (let i = 0; i < c.length; i++) out[i] = c[i]! * scale;
      return out;
    }),
  };
};

const damaged = (at: number, info: StreamInfo, samplesSoFar: number, why: string): DecodeFailure =>
  new DecodeFailure({
    code: 'corrupt',
    detail: `This FLAC file is damaged about ${(samplesSoFar / info.sampleRateHz).toFixed(1)} s in (byte ${at}: ${why}); the audio before that point is intact.`,
  });

async function* flacChunks(path: string, info: StreamInfo, size: number): AsyncGenerator<PcmChunk> {
  const source = readFileBlocks(path, info.framesOffset, size - info.framesOffset, 1, READ_BYTES);
  let buf = new Uint8Array(0);
  let pos = 0;
  let consumed = info.framesOffset;
  let eof = false;
  let samples = 0;
  const more = async (): Promise<void> => {
    const next = await source.next();
    if (next.done === true) {
      eof = true;
      return;
    }
    const joined = new Uint8Array(buf.length - pos + next.value.length);
    joined.set(buf.subarray(pos));
    joined.set(next.value, buf.length - pos);
    consumed += pos;
    buf = joined;
    pos = 0;
  };
  const want = Math.max(info.maxFrameBytes, 1 << 16) + 16;
  for (;;) {
    while (!eof && buf.length - pos < want) await more();
    if (pos >= buf.length) return;
    if (!isFrameSync(buf, pos)) {
      if (samples >= info.totalSamples && info.totalSamples > 0) return; // trailing tags after the last frame
      throw damaged(consumed + pos, info, samples, 'no frame starts here');
    }
    try {
      const frame = decodeFrame(buf, pos, info);
      pos = frame.end;
      samples += frame.channels[0]!.length;
      yield toChunk(frame.channels, frame.bitDepth);
    } catch (e) {
      if (e instanceof OutOfData) {
        if (eof) throw damaged(consumed + pos, info, samples, 'the file ends inside a frame');
        await more();
      } else if (e instanceof FlacDamage) throw damaged(consumed + pos, info, samples, e.message);
      else throw e;
    }
  }
}

const open = async (path: string): Promise<Result<AudioDecoder, DecodeProblem>> => {
  let want = 1 << 16;
  for (;;) {
    const { head, size } = await readFileHead(path, want);
    const meta = readMetadata(head);
    if (meta === null && head.length < size && want < 64 << 20) {
      want *= 8;
      continue;
    }
    if (meta === null) return corrupt('This FLAC file ends inside its metadata, so it holds no audio.');
    if (!meta.ok) return meta;
    const info = meta.value;
    return ok({
      info: {
        container: 'flac',
        codec: 'flac',
        sampleRateHz: info.sampleRateHz,
        channels: info.channels,
        durationSeconds: info.totalSamples > 0 ? info.totalSamples / info.sampleRateHz : null,
        decoder: FLAC_DECODER,
      },
      chunks: () => flacChunks(path, info, size),
    });
  }
};

export const FLAC_FORMAT: DecodableFormat = { name: 'FLAC', recognise, open };
