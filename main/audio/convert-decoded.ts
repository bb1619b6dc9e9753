/**
 * The optional conversion for every recording the product decodes (FLAC, AIFF, CAF, Ogg, WebM, MP3,
 * MP4 and WAV in any encoding): the same rules as the WAV conversion (one channel sent, 1-based, 'auto'
 * the first, 'mix' the mean only when asked; resampled to 16 kHz; 16-bit PCM WAV), fed from the
 * decoder's chunks. Only the channel sent is kept while decoding, so a stereo file costs the memory of
 * one channel. The conversion names what decoded the file, for the recording's provenance.
 */
import type { AudioDecoder } from './decode/decoder';
import { channelToSend, encodeMono16k, type Conversion } from './convert-wav';
import { monoOf } from './decoded-samples';

export interface DecodedConversion extends Conversion {
  /** What decoded the original: the decoder (a package with its version, or this project's reader), container and codec. */
  readonly decodedBy: { readonly decoder: string; readonly container: string; readonly codec: string };
}

/** The channel sent, decoded chunk by chunk into one array (the other channels are dropped as they come). */
const collectChannel = async (decoder: AudioDecoder, sent: number | 'mix'): Promise<Float32Array> => {
  const parts: Float32Array[] = [];
  let total = 0;
  for await (const chunk of decoder.chunks()) {
    const part = Float32Array.from(monoOf(chunk, sent));
    parts.push(part);
    total += part.length;
  }
  const mono = new Float32Array(total);
  let at = 0;
  for (const p of parts) {
    mono.set(p, at);
    at += p.length;
  }
  return mono;
};

/** Converts a decoded recording to mono 16 kHz 16-bit PCM WAV; throws the decoder's DecodeFailure on damage. */
export const convertDecodedToMono16k = async (
  decoder: AudioDecoder,
  channel: 'auto' | 'mix' | number = 'auto',
): Promise<DecodedConversion> => {
  const { info } = decoder;
  const sent = channelToSend(info.channels, channel);
  const mono = await collectChannel(decoder, sent);
  return {
    ...(await encodeMono16k(mono, info.sampleRateHz)),
    mixedDown: sent === 'mix' && info.channels > 1,
    channel: sent,
    decodedBy: { decoder: info.decoder, container: info.container, codec: info.codec },
  };
};
