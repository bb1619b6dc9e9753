/**
 * A decoder for a compressed file: the container's track (compressed-track.ts) joined to the codec's
 * decoder. Opus, Vorbis and MP3 decode in the product; AAC and anything else the container may hold are named
 * with why they are not decoded (not-decoded.ts).
 */
import { err, ok, type Result } from '../../../shared/result';
import { openCompressedTrack, type CompressedPacket, type CompressedTrack } from './compressed-track';
import type { AudioDecoder, DecodeProblem, DecodedStreamInfo } from './decoder';
import { MP3_DECODER_DELAY, readMp3Gapless } from './mp3-gapless';
import { MP3_DECODER, mp3Chunks } from './mp3-stream';
import { aacNotDecoded, codecNotDecoded } from './not-decoded';
import { OPUS_DECODER, OPUS_RATE, opusChunks, parseOpusHead } from './opus-stream';
import { trimSamples } from './trim-samples';
import { VORBIS_DECODER, vorbisChunks, vorbisHeaders } from './vorbis-stream';

/** How the container is named: `name` in provenance ('ogg'), `what` in a researcher's message ('Ogg'). */
export interface ContainerNames {
  readonly name: string;
  readonly what: string;
}

async function* dataOf(packets: AsyncIterable<CompressedPacket>): AsyncGenerator<Uint8Array> {
  for await (const p of packets) yield p.data;
}

const info = (
  names: ContainerNames,
  track: CompressedTrack,
  fields: Pick<DecodedStreamInfo, 'codec' | 'sampleRateHz' | 'decoder'>,
): DecodedStreamInfo => ({
  container: names.name,
  channels: track.channels,
  durationSeconds: track.durationSeconds,
  ...fields,
});

const opusDecoder = (names: ContainerNames, track: CompressedTrack): Result<AudioDecoder, DecodeProblem> => {
  const head = parseOpusHead(track.description);
  if (!head)
    return err({
      code: 'corrupt',
      detail: `The ${names.what} file's Opus stream has no valid OpusHead header.`,
    });
  const total = track.durationSeconds === null ? null : Math.round(track.durationSeconds * OPUS_RATE);
  return ok({
    info: {
      ...info(names, track, { codec: 'opus', sampleRateHz: OPUS_RATE, decoder: OPUS_DECODER }),
      channels: head.channels,
    },
    chunks: () => opusChunks(head, dataOf(track.packets()), total),
  });
};

const mp3Decoder = async (
  path: string,
  names: ContainerNames,
  track: CompressedTrack,
): Promise<Result<AudioDecoder, DecodeProblem>> => {
  const gapless = names.name === 'mp3' ? await readMp3Gapless(path) : null;
  const samplesPerFrame = track.sampleRateHz >= 32_000 ? 1152 : 576;
  const skip = gapless ? gapless.encoderDelay + MP3_DECODER_DELAY : 0;
  const keep = gapless
    ? gapless.frames * gapless.samplesPerFrame - gapless.encoderDelay - gapless.padding
    : null;
  const durationSeconds = keep === null ? track.durationSeconds : keep / track.sampleRateHz;
  return ok({
    info: {
      ...info(names, track, { codec: 'mp3', sampleRateHz: track.sampleRateHz, decoder: MP3_DECODER }),
      durationSeconds,
    },
    chunks: () =>
      trimSamples(mp3Chunks(dataOf(track.packets()), samplesPerFrame, track.channels), skip, keep),
  });
};

const vorbisDecoder = (
  names: ContainerNames,
  track: CompressedTrack,
): Result<AudioDecoder, DecodeProblem> => {
  const headers = vorbisHeaders(track.description);
  if (!headers)
    return err({ code: 'corrupt', detail: `The ${names.what} file's Vorbis stream has no valid headers.` });
  const rate = track.sampleRateHz;
  // Ogg's last granule position says where the audio ends, to the sample; Matroska's duration does not.
  const exactEnd = names.name === 'ogg' && track.durationSeconds !== null;
  const total = exactEnd ? Math.round(track.durationSeconds! * rate) : null;
  return ok({
    info: info(names, track, { codec: 'vorbis', sampleRateHz: rate, decoder: VORBIS_DECODER }),
    chunks: () => trimSamples(vorbisChunks(headers, track.packets()), 0, total),
  });
};

/** Opens the compressed file at `path` and picks the decoder for the codec inside. */
export const openCompressed = async (
  path: string,
  names: ContainerNames,
): Promise<Result<AudioDecoder, DecodeProblem>> => {
  const opened = await openCompressedTrack(path, names.what);
  if (!opened.ok) return opened;
  const track = opened.value;
  switch (track.codec) {
    case 'opus':
      return opusDecoder(names, track);
    case 'mp3':
      return mp3Decoder(path, names, track);
    case 'vorbis':
      return vorbisDecoder(names, track);
    case 'aac':
      return err(aacNotDecoded(names.what));
    default:
      return err(codecNotDecoded(names.what, track.codec));
  }
};
