/**
 * The optional WAV conversion the researcher can switch on: one channel (or the mean of the channels,
 * when asked) resampled to 16 kHz, written as 16-bit PCM WAV, the service's standard speech format. The
 * original file is never touched; the caller stores the result elsewhere.
 *
 * Resampling is the polyphase Kaiser-windowed sinc of `sinc-resampler.ts` (passband to 80 % of the
 * lower Nyquist frequency: 6.4 kHz at 16 kHz, above the formants and cepstral measures speech analysis
 * uses; at least 90 dB of attenuation from that Nyquist frequency on). It filters before decimating, so
 * 44.1 or 48 kHz recordings do not alias into the speech band. The pipeline itself is `mono16k-stream.ts`, shared with the
 * conversion of every decoded format; the import converts files through it straight to disk
 * (`convert-decoded.ts`), and these in-memory forms serve short audio.
 */
import { concatBytes } from './decode/concat-bytes';
import { readChannelSamples, readMonoSamples, type WavInfo } from './wav';
import {
  channelToSend,
  pcm16MonoWavHeader,
  streamMono16k,
  toPcm16,
  CONVERTED_RATE_HZ,
} from './mono16k-stream';

export { channelToSend, CONVERTED_RATE_HZ } from './mono16k-stream';

/** A 16-bit PCM mono WAV file of the given samples (clipped to [-1, 1]). */
export const encodePcm16MonoWav = (samples: Float32Array, sampleRateHz: number): Uint8Array =>
  concatBytes([pcm16MonoWavHeader(samples.length, sampleRateHz), toPcm16(samples)]);

export interface Conversion {
  readonly bytes: Uint8Array;
  readonly mixedDown: boolean;
  /** The channel sent (1-based), or 'mix' when the channels were averaged. */
  readonly channel: number | 'mix';
  readonly resampledFromHz: number | null;
}

/** Resamples mono samples to 16 kHz when needed and writes them as a 16-bit PCM mono WAV file. */
export const encodeMono16k = async (
  mono: Float32Array,
  sampleRateHz: number,
): Promise<{ bytes: Uint8Array; resampledFromHz: number | null }> => {
  const parts: Uint8Array[] = [];
  const r = await streamMono16k([{ channels: [mono] }], { channels: 1, sampleRateHz }, 1, (p) => {
    parts.push(p);
  });
  const bytes = concatBytes([pcm16MonoWavHeader(r.frames, CONVERTED_RATE_HZ), ...parts]);
  return { bytes, resampledFromHz: r.resampledFromHz };
};

/**
 * Converts to mono 16 kHz. A multichannel file sends one channel, never an average that would mix a
 * silent channel in and lose level: `channel` is 1-based, 'auto' means the first (the caller passes the
 * channel with most speech), 'mix' averages the channels on purpose.
 */
export const convertWavToMono16k = async (
  bytes: Uint8Array,
  info: WavInfo,
  channel: 'auto' | 'mix' | number = 'auto',
): Promise<Conversion> => {
  const sent = channelToSend(info.channels, channel);
  const mono = sent === 'mix' ? readMonoSamples(bytes, info) : readChannelSamples(bytes, info, sent - 1);
  const mixedDown = sent === 'mix' && info.channels > 1;
  return { ...(await encodeMono16k(mono, info.sampleRateHz)), mixedDown, channel: sent };
};
