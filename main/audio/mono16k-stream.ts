/**
 * The conversion's pipeline, as a stream: decoded chunks → the channel sent (or the mean of the
 * channels, when asked) → resampled to 16 kHz → 16-bit samples → a sink. Only one block of input and
 * its output are held at a time, so a recording of any length converts in bounded memory.
 *
 * Resampling is `sinc-resampler.ts`, which keeps the filter's state from one block to the next; at the
 * end of the input it is fed silence until every output sample that falls inside the recording has come
 * out, so the copy lasts as long as the original (to the sample at 16 kHz: floor(input samples × 16000
 * / input rate)).
 */
import type { PcmChunk } from './decode/decoder';
import { createSincResampler } from './sinc-resampler';

export const CONVERTED_RATE_HZ = 16_000;

/** The size of the converted copy of a recording lasting `durationSeconds`: 16-bit mono at 16 kHz and its 44-byte header. */
export const convertedBytes = (durationSeconds: number): number =>
  Math.ceil(durationSeconds * CONVERTED_RATE_HZ) * 2 + 44;

/** Input samples gathered before each call into the resampler (fewer calls, each worth its overhead). */
const BLOCK_SAMPLES = 1 << 16;

/** Receives the converted copy's 16-bit samples (little-endian), block by block, in order. */
export type Pcm16Sink = (pcm: Uint8Array) => Promise<void> | void;

export interface Mono16kStreamResult {
  /** The channel sent (1-based), or 'mix' when the channels were averaged. */
  readonly channel: number | 'mix';
  readonly mixedDown: boolean;
  /** The original's rate when it was resampled; null when it was already 16 kHz. */
  readonly resampledFromHz: number | null;
  /** Samples written (at 16 kHz). */
  readonly frames: number;
}

/** Which channel is sent (1-based), or 'mix': one channel unless the mix is asked for on purpose. */
export const channelToSend = (channels: number, channel: 'auto' | 'mix' | number): number | 'mix' =>
  channels === 1
    ? 1
    : channel === 'mix'
      ? 'mix'
      : channel === 'auto'
        ? 1
        : Math.min(channels, Math.max(1, channel));

/** 16-bit little-endian samples of `x` (clipped to [-1, 1]; −1 → −32768, 1 → 32767). */
export const toPcm16 = (x: Float32Array): Uint8Array => {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    const c = v > 1 ? 1 : v < -1 ? -1 : v;
    out[i] = Math.round(c < 0 ? c * 32768 : c * 32767);
  }
  return new Uint8Array(out.buffer); // little-endian on every platform Electron runs on
};

/** The 44-byte header of a 16-bit PCM mono WAV file of `frames` samples. */
export const pcm16MonoWavHeader = (frames: number, sampleRateHz: number): Uint8Array => {
  const dataBytes = frames * 2;
  const out = new Uint8Array(44);
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
  return out;
};

/** The channel sent of one chunk: a view of it, or the mean of every channel. */
const monoOf = (chunk: PcmChunk, sent: number | 'mix'): Float32Array => {
  if (sent !== 'mix') return chunk.channels[sent - 1]!;
  const n = chunk.channels[0]!.length;
  const out = new Float32Array(n);
  for (const ch of chunk.channels) for (let i = 0; i < n; i++) out[i] = out[i]! + ch[i]!;
  const k = chunk.channels.length;
  for (let i = 0; i < n; i++) out[i] = out[i]! / k;
  return out;
};

/** A stage that takes mono input at any rate and gives 16 kHz output. */
interface Resampling {
  push(x: Float32Array): Float32Array;
  /** The rest of the output, once the input has ended. */
  finish(): Float32Array;
  destroy(): void;
}

const passThrough: Resampling = {
  push: (x) => x,
  finish: () => new Float32Array(0),
  destroy: () => undefined,
};

const resamplingFrom = (rate: number): Resampling => {
  if (rate === CONVERTED_RATE_HZ) return passThrough;
  const r = createSincResampler(rate, CONVERTED_RATE_HZ);
  return { push: (x) => r.push(x), finish: () => r.finish(), destroy: () => undefined };
};

/**
 * Converts decoded chunks of a recording with `channels` channels at `sampleRateHz` to mono 16 kHz
 * 16-bit samples, written to `sink` in order. `channel` is 1-based, 'auto' the first, 'mix' the mean.
 */
export const streamMono16k = async (
  chunks: AsyncIterable<PcmChunk> | Iterable<PcmChunk>,
  source: { readonly channels: number; readonly sampleRateHz: number },
  channel: 'auto' | 'mix' | number,
  sink: Pcm16Sink,
): Promise<Mono16kStreamResult> => {
  const sent = channelToSend(source.channels, channel);
  const rate = Math.round(source.sampleRateHz);
  const resampling = resamplingFrom(rate);
  const block = new Float32Array(BLOCK_SAMPLES);
  let filled = 0;
  let frames = 0;
  const emit = async (out: Float32Array) => {
    if (out.length === 0) return;
    frames += out.length;
    await sink(toPcm16(out));
  };
  try {
    for await (const chunk of chunks) {
      const mono = monoOf(chunk, sent);
      for (let at = 0; at < mono.length;) {
        const n = Math.min(mono.length - at, BLOCK_SAMPLES - filled);
        block.set(mono.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === BLOCK_SAMPLES) {
          await emit(resampling.push(block));
          filled = 0;
        }
      }
    }
    if (filled > 0) await emit(resampling.push(block.subarray(0, filled)));
    await emit(resampling.finish());
  } finally {
    resampling.destroy();
  }
  return {
    channel: sent,
    mixedDown: sent === 'mix' && source.channels > 1,
    resampledFromHz: rate === CONVERTED_RATE_HZ ? null : rate,
    frames,
  };
};
