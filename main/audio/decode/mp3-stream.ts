/**
 * MP3 frames to samples with `minimp3-wasm` (the public-domain minimp3 decoder compiled to
 * WebAssembly). That build decodes a buffer of whole frames at a time, so the frames are fed in
 * windows: each window starts with a few frames already decoded in the window before (the bit
 * reservoir and the filterbank reach back at most that far), and of its output only the samples of
 * its new frames are kept. Memory stays at one window however long the file is.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { concatBytes } from './concat-bytes';
import type { PcmChunk } from './decoder';

export const MP3_DECODER = 'minimp3-wasm 0.1.0 (minimp3, WebAssembly)';

/** New frames decoded per window, and frames repeated from the window before. */
const WINDOW_FRAMES = 256;
const PREROLL_FRAMES = 8;

interface Minimp3Exports {
  readonly memory: WebAssembly.Memory;
  decoder_init(): void;
  decoder_set_mp3_data_size(bytes: number): void;
  decoder_mp3_data_offset(): number;
  decoder_seek(seconds: number): void;
  decoder_decode(seconds: number): void;
  decoder_pcm_data_offset(): number;
  decode_results_num_channels(): number;
  decode_results_num_samples(): number;
}

let module: WebAssembly.Module | null = null;
const wasmModule = (): WebAssembly.Module => {
  if (!module) {
    const path = createRequire(import.meta.url).resolve('minimp3-wasm/dist/decoder.opt.wasm');
    module = new WebAssembly.Module(readFileSync(path));
  }
  return module;
};

const newDecoder = (): Minimp3Exports =>
  new WebAssembly.Instance(wasmModule(), {}).exports as unknown as Minimp3Exports;

/** Decodes a buffer of whole frames; all of its samples, planar, scaled to [-1, 1]. */
const decodeFrames = (
  wasm: Minimp3Exports,
  frames: readonly Uint8Array[],
  channels: number,
): Float32Array[] => {
  const data = concatBytes(frames);
  wasm.decoder_init();
  wasm.decoder_set_mp3_data_size(data.length);
  new Uint8Array(wasm.memory.buffer, wasm.decoder_mp3_data_offset(), data.length).set(data);
  wasm.decoder_seek(0);
  wasm.decoder_decode(1e6);
  const stride = Math.max(1, wasm.decode_results_num_channels());
  const got = wasm.decode_results_num_samples() / stride;
  const pcm = new Int16Array(wasm.memory.buffer, wasm.decoder_pcm_data_offset(), got * stride);
  const out = Array.from({ length: channels }, () => new Float32Array(got));
  for (let i = 0; i < got; i++) {
    for (let c = 0; c < channels; c++) out[c]![i] = pcm[i * stride + Math.min(c, stride - 1)]! / 32768;
  }
  return out;
};

const squaredDifference = (a: Float32Array, b: Float32Array): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += (a[i]! - (b[i] ?? 0)) ** 2;
  return d;
};

/**
 * Where a window's new frames start in its output. A window that starts mid-stream may give out its
 * first frame one frame late (that frame's bit reservoir lies before the window), so the start is
 * found by matching the window's copy of the last repeated frame against the one already given out.
 */
const newFramesStart = (
  output: Float32Array,
  lastFrame: Float32Array,
  preroll: number,
  perFrame: number,
): number => {
  let best = preroll;
  let bestDifference = Infinity;
  for (let late = 0; late <= 2 && late < preroll; late++) {
    const end = (preroll - late) * perFrame;
    const difference = squaredDifference(lastFrame, output.subarray(end - perFrame, end));
    if (difference < bestDifference) [best, bestDifference] = [preroll - late, difference];
  }
  return best * perFrame;
};

/** The samples of a run of MP3 frames (all of one rate and channel count), window by window. */
export async function* mp3Chunks(
  packets: AsyncIterable<Uint8Array>,
  samplesPerFrame: number,
  channels: number,
): AsyncGenerator<PcmChunk> {
  const wasm = newDecoder();
  let preroll: Uint8Array[] = [];
  let fresh: Uint8Array[] = [];
  let lastFrame: Float32Array | null = null;
  const decodeWindow = (): PcmChunk => {
    const output = decodeFrames(wasm, [...preroll, ...fresh], channels);
    const start = lastFrame ? newFramesStart(output[0]!, lastFrame, preroll.length, samplesPerFrame) : 0;
    const kept = output.map((c) => c.subarray(start, start + fresh.length * samplesPerFrame));
    lastFrame = kept[0]!.slice(-samplesPerFrame);
    preroll = fresh.slice(-PREROLL_FRAMES);
    fresh = [];
    return { channels: kept };
  };
  for await (const frame of packets) {
    fresh.push(frame.slice());
    if (fresh.length === WINDOW_FRAMES) yield decodeWindow();
  }
  if (fresh.length > 0) yield decodeWindow();
}
