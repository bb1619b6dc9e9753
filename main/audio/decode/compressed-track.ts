/**
 * The one audio track of a compressed file (MP3, MP4/M4A, Ogg, WebM/Matroska), read with mediabunny's
 * demuxer: its codec, rate, channels and duration from the headers, and its encoded packets one by one
 * from the file, never the whole file in memory. Decoding the packets is the codec modules' work.
 */
import { ALL_FORMATS, EncodedPacketSink, FilePathSource, Input } from 'mediabunny';
import { err, ok, type Result } from '../../../shared/result';
import type { DecodeProblem } from './decoder';

export interface CompressedTrack {
  /** mediabunny's name for the codec: 'opus', 'mp3', 'aac', 'vorbis', 'flac', ... */
  readonly codec: string;
  readonly sampleRateHz: number;
  readonly channels: number;
  /** The track's length in seconds as the container tells it; null when it does not. */
  readonly durationSeconds: number | null;
  /** The codec's set-up bytes (OpusHead, Vorbis headers, AudioSpecificConfig), when the container has them. */
  readonly description: Uint8Array | null;
  /** The encoded packets in decoding order, each time from the start of the file. */
  packets(): AsyncIterable<CompressedPacket>;
}

export interface CompressedPacket {
  readonly data: Uint8Array;
  /** The samples this packet adds to the output, as the container tells it (0 for a codec's first). */
  readonly durationSeconds: number;
}

const asBytes = (d: AllowSharedBufferSource | undefined): Uint8Array | null => {
  if (!d) return null;
  if (d instanceof Uint8Array) return d;
  if (ArrayBuffer.isView(d)) return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  return new Uint8Array(d);
};

const openInput = (path: string): Input =>
  new Input({ source: new FilePathSource(path), formats: ALL_FORMATS });

async function* packetsOf(path: string): AsyncGenerator<CompressedPacket> {
  const input = openInput(path);
  try {
    const track = await input.getPrimaryAudioTrack();
    if (!track) return;
    for await (const packet of new EncodedPacketSink(track).packets()) {
      yield { data: packet.data, durationSeconds: packet.duration };
    }
  } finally {
    input.dispose();
  }
}

const unreadable = (what: string, e: unknown): DecodeProblem => ({
  code: 'corrupt',
  detail: `The ${what} file's structure could not be read (${e instanceof Error ? e.message : String(e)}); the file may be damaged or cut short.`,
});

/** Opens the file's first audio track; `what` names the format in the researcher's words ('Ogg'). */
export const openCompressedTrack = async (
  path: string,
  what: string,
): Promise<Result<CompressedTrack, DecodeProblem>> => {
  const input = openInput(path);
  try {
    const track = await input.getPrimaryAudioTrack();
    if (!track || !track.codec) {
      return err({ code: 'corrupt', detail: `The ${what} file holds no audio track this program can name.` });
    }
    const config = await track.getDecoderConfig();
    const duration = await track.computeDuration();
    return ok({
      codec: track.codec,
      sampleRateHz: track.sampleRate,
      channels: track.numberOfChannels,
      durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null,
      description: asBytes(config?.description),
      packets: () => packetsOf(path),
    });
  } catch (e) {
    return err(unreadable(what, e));
  } finally {
    input.dispose();
  }
};
