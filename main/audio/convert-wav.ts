/**
 * The optional WAV conversion the researcher can switch on: mix down to mono (mean of the channels)
 * and resample to 16 kHz, written as 16-bit PCM WAV, the service's standard speech format. The
 * original file is never touched; the caller stores the result elsewhere.
 *
 * Resampling uses libsamplerate (Erik de Castro Lopo's Secret Rabbit Code, compiled to WebAssembly
 * in @alexanderolsen/libsamplerate-js and shipped inside the package), with its fastest band-limited
 * sinc converter (97 dB SNR, passband to 80 % of Nyquist: 6.4 kHz at 16 kHz, above the formants and
 * cepstral measures speech analysis uses). It filters before decimating, so 44.1 or 48 kHz recordings
 * do not alias into the speech band; 50 s of 44.1 kHz audio takes about 0.4 s (medium quality 1.4 s).
 */
import libsamplerate from '@alexanderolsen/libsamplerate-js';
import { readChannelSamples, readMonoSamples, type WavInfo } from './wav';

// The package is UMD: Node's ESM loader exposes it only as a default export.
const { create, ConverterType } = libsamplerate;

export const CONVERTED_RATE_HZ = 16_000;

/** A 16-bit PCM mono WAV file of the given samples (clipped to [-1, 1]). */
export const encodePcm16MonoWav = (samples: Float32Array, sampleRateHz: number): Uint8Array => {
  const dataBytes = samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, sampleRateHz, true);
  v.setUint32(28, sampleRateHz * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) {
    const x = Math.max(-1, Math.min(1, samples[i]!));
    v.setInt16(44 + i * 2, Math.round(x < 0 ? x * 32768 : x * 32767), true);
  }
  return out;
};

export interface Conversion {
  readonly bytes: Uint8Array;
  readonly mixedDown: boolean;
  /** The channel sent (1-based), or 'mix' when the channels were averaged. */
  readonly channel: number | 'mix';
  readonly resampledFromHz: number | null;
}

/**
 * Converts to mono 16 kHz. A multichannel file sends one channel, never an average that would mix a
 * silent channel in and lose level: `channel` is 1-based, 'auto' means the first (the caller passes the
 * channel with most speech), 'mix' averages the channels on purpose.
 */
/** Which channel is sent (1-based), or 'mix': one channel unless the mix is asked for on purpose. */
export const channelToSend = (channels: number, channel: 'auto' | 'mix' | number): number | 'mix' =>
  channels === 1
    ? 1
    : channel === 'mix'
      ? 'mix'
      : channel === 'auto'
        ? 1
        : Math.min(channels, Math.max(1, channel));

/** Resamples mono samples to 16 kHz when needed and writes them as a 16-bit PCM mono WAV file. */
export const encodeMono16k = async (
  mono: Float32Array,
  sampleRateHz: number,
): Promise<{ bytes: Uint8Array; resampledFromHz: number | null }> => {
  const rate = Math.round(sampleRateHz);
  if (rate === CONVERTED_RATE_HZ) return { bytes: encodePcm16MonoWav(mono, rate), resampledFromHz: null };
  const src = await create(1, rate, CONVERTED_RATE_HZ, { converterType: ConverterType.SRC_SINC_FASTEST });
  try {
    return { bytes: encodePcm16MonoWav(src.simple(mono), CONVERTED_RATE_HZ), resampledFromHz: rate };
  } finally {
    src.destroy();
  }
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
