/**
 * The lossless and uncompressed decoders against ffmpeg's decode of the same file (`ffmpeg -i x -f f32le`):
 * real speech (an evaluation clip where the corpus is here, else the speech-like test signal), encoded
 * by ffmpeg into each encoding, must decode to the same samples.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { openAudioDecoder } from '../../../main/audio/decode';
import type { AudioDecoder } from '../../../main/audio/decode/decoder';
import { makeWav } from '../../fixtures/audio';
import { describeWithTool, itWithTool } from '../../support/reference-tools';

const dir = mkdtempSync(join(tmpdir(), 'vs-decode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLIPS = process.env['VOICESCOPE_CLIPS'] ?? '/tmp/acx/clips';
/**
 * Real meeting speech where the evaluation clips are here; else 10 s of the speech-like signal (pauses
 * and voiced stretches: every kind of block a decoder meets; a longer signal only repeats them).
 */
const source = (): string => {
  const real = join(CLIPS, 'ami-sample.wav');
  if (existsSync(real)) return real;
  const file = join(dir, 'speech.wav');
  if (!existsSync(file)) writeFileSync(file, makeWav({ seconds: 10, speechSeconds: 8, seed: 5 }));
  return file;
};

const ffmpeg = (args: string[]): Buffer => {
  const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(String(r.stderr));
  return r.stdout;
};

/** The speech made stereo once: the right channel a delayed, quieter copy. */
const stereoSource = (): string => {
  const out = join(dir, 'stereo-source.wav');
  if (!existsSync(out))
    ffmpeg([
      '-i',
      source(),
      '-filter_complex',
      '[0:a]asplit[l][r];[r]adelay=7,volume=0.6[rd];[l][rd]join=inputs=2:channel_layout=stereo',
      '-c:a',
      'pcm_f32le',
      out,
    ]);
  return out;
};

/**
 * Encodes every case of a group with one ffmpeg process, then decodes every file with another
 * (`-f f32le`, one raw file per case): 2 processes a group instead of 2 a case (each start about 0.2 s).
 */
const encodeAndReference = (cases: readonly Case[]): void => {
  const outputs = cases.flatMap((c) => ['-map', c.stereo ? '1:a' : '0:a', ...c.args, join(dir, c.name)]);
  ffmpeg(['-i', source(), '-i', stereoSource(), ...outputs]);
  const inputs = cases.flatMap((c) => ['-i', join(dir, c.name)]);
  const raws = cases.flatMap((c, i) => ['-map', `${i}:a`, '-f', 'f32le', join(dir, `${c.name}.f32`)]);
  ffmpeg([...inputs, ...raws]);
};

/** ffmpeg's decode (written by encodeAndReference), as one array per channel. */
const reference = (c: Case, channels: number): Float32Array[] => {
  const raw = readFileSync(join(dir, `${c.name}.f32`));
  const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const frames = all.length / channels;
  const planar = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i++)
    for (let ch = 0; ch < channels; ch++) planar[ch]![i] = all[i * channels + ch]!;
  return planar;
};

const decodeAll = async (d: AudioDecoder): Promise<Float32Array[]> => {
  const parts: Float32Array[][] = [];
  for await (const chunk of d.chunks()) parts.push([...chunk.channels]);
  return Array.from({ length: d.info.channels }, (_, c) => {
    const total = parts.reduce((n, p) => n + p[c]!.length, 0);
    const out = new Float32Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p[c]!, at);
      at += p[c]!.length;
    }
    return out;
  });
};

const largestDifference = (a: Float32Array, b: Float32Array): number => {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
};

interface Case {
  readonly name: string;
  readonly args: string[];
  readonly stereo?: boolean;
  readonly codec: string;
  /** The largest difference allowed from ffmpeg's decode, in units of 1/32768; 0 for exact. */
  readonly lsb?: number;
}

const expectSameAsFfmpeg = async (c: Case): Promise<void> => {
  const file = join(dir, c.name);
  const opened = await openAudioDecoder(file);
  if (!opened.ok) throw new Error(opened.error.detail);
  const d = opened.value;
  expect(d.info.codec).toBe(c.codec);
  expect(d.info.channels).toBe(c.stereo ? 2 : 1);
  const ours = await decodeAll(d);
  const theirs = reference(c, d.info.channels);
  for (let ch = 0; ch < theirs.length; ch++) {
    expect(ours[ch]!.length).toBe(theirs[ch]!.length);
    expect(largestDifference(ours[ch]!, theirs[ch]!) * 32768).toBeLessThanOrEqual(c.lsb ?? 0);
  }
  if (d.info.durationSeconds !== null)
    expect(d.info.durationSeconds * d.info.sampleRateHz).toBeCloseTo(theirs[0]!.length, 6);
};

const WAV_CASES: readonly Case[] = [
  { name: 'u8.wav', args: ['-c:a', 'pcm_u8'], codec: 'pcm' },
  { name: 's16.wav', args: ['-c:a', 'pcm_s16le'], stereo: true, codec: 'pcm' },
  { name: 's24.wav', args: ['-c:a', 'pcm_s24le'], codec: 'pcm' },
  { name: 's32.wav', args: ['-c:a', 'pcm_s32le'], stereo: true, codec: 'pcm' },
  { name: 'f32.wav', args: ['-c:a', 'pcm_f32le'], codec: 'float' },
  { name: 'f64.wav', args: ['-c:a', 'pcm_f64le'], stereo: true, codec: 'float' },
  {
    name: 'ext.wav',
    args: ['-c:a', 'pcm_s24le', '-rf64', 'never', '-write_bext', '1'],
    stereo: true,
    codec: 'pcm',
  },
  { name: 'alaw.wav', args: ['-c:a', 'pcm_alaw', '-ar', '8000'], codec: 'alaw' },
  { name: 'mulaw.wav', args: ['-c:a', 'pcm_mulaw', '-ar', '8000'], codec: 'mulaw' },
  { name: 'mulaw2.wav', args: ['-c:a', 'pcm_mulaw'], stereo: true, codec: 'mulaw' },
  { name: 'ima.wav', args: ['-c:a', 'adpcm_ima_wav'], codec: 'ima-adpcm' },
  { name: 'ima2.wav', args: ['-c:a', 'adpcm_ima_wav'], stereo: true, codec: 'ima-adpcm' },
  { name: 'ms.wav', args: ['-c:a', 'adpcm_ms'], codec: 'ms-adpcm' },
  { name: 'ms2.wav', args: ['-c:a', 'adpcm_ms'], stereo: true, codec: 'ms-adpcm' },
];

const AIFF_CAF_CASES: readonly Case[] = [
  { name: 's16.aiff', args: ['-c:a', 'pcm_s16be'], stereo: true, codec: 'pcm' },
  { name: 's24.aiff', args: ['-c:a', 'pcm_s24be'], codec: 'pcm' },
  { name: 's8.aiff', args: ['-c:a', 'pcm_s8'], codec: 'pcm' },
  { name: 'none.aifc', args: ['-c:a', 'pcm_s32be', '-f', 'aiff'], codec: 'pcm' },
  { name: 'sowt.aifc', args: ['-c:a', 'pcm_s16le'], stereo: true, codec: 'pcm' },
  { name: 'fl32.aifc', args: ['-c:a', 'pcm_f32be'], codec: 'float' },
  { name: 'fl64.aifc', args: ['-c:a', 'pcm_f64be'], stereo: true, codec: 'float' },
  { name: 'alaw.aifc', args: ['-c:a', 'pcm_alaw', '-ar', '8000'], codec: 'alaw' },
  { name: 'ulaw.aifc', args: ['-c:a', 'pcm_mulaw'], codec: 'mulaw' },
  { name: 's16be.caf', args: ['-c:a', 'pcm_s16be'], stereo: true, codec: 'pcm' },
  { name: 's16le.caf', args: ['-c:a', 'pcm_s16le'], codec: 'pcm' },
  { name: 's24le.caf', args: ['-c:a', 'pcm_s24le'], stereo: true, codec: 'pcm' },
  { name: 'f32le.caf', args: ['-c:a', 'pcm_f32le'], codec: 'float' },
  { name: 'f64be.caf', args: ['-c:a', 'pcm_f64be'], codec: 'float' },
  { name: 'alaw.caf', args: ['-c:a', 'pcm_alaw', '-ar', '8000'], codec: 'alaw' },
  { name: 'ulaw.caf', args: ['-c:a', 'pcm_mulaw'], stereo: true, codec: 'mulaw' },
];

const FLAC_CASES: readonly Case[] = [
  { name: 'c0.flac', args: ['-c:a', 'flac', '-compression_level', '0'], codec: 'flac' },
  { name: 'c5.flac', args: ['-c:a', 'flac', '-compression_level', '5'], stereo: true, codec: 'flac' },
  { name: 'c8.flac', args: ['-c:a', 'flac', '-compression_level', '8'], stereo: true, codec: 'flac' },
  { name: 'c12.flac', args: ['-c:a', 'flac', '-compression_level', '12'], codec: 'flac' },
  { name: 'fixed.flac', args: ['-c:a', 'flac', '-lpc_type', 'fixed'], stereo: true, codec: 'flac' },
  {
    name: 'cholesky.flac',
    args: ['-c:a', 'flac', '-lpc_type', 'cholesky', '-lpc_passes', '2'],
    codec: 'flac',
  },
  { name: 'none.flac', args: ['-c:a', 'flac', '-lpc_type', 'none'], codec: 'flac' },
  { name: 'indep.flac', args: ['-c:a', 'flac', '-ch_mode', 'indep'], stereo: true, codec: 'flac' },
  { name: 'left_side.flac', args: ['-c:a', 'flac', '-ch_mode', 'left_side'], stereo: true, codec: 'flac' },
  { name: 'right_side.flac', args: ['-c:a', 'flac', '-ch_mode', 'right_side'], stereo: true, codec: 'flac' },
  { name: 'mid_side.flac', args: ['-c:a', 'flac', '-ch_mode', 'mid_side'], stereo: true, codec: 'flac' },
  {
    name: 's24.flac',
    args: ['-c:a', 'flac', '-sample_fmt', 's32', '-bits_per_raw_sample', '24'],
    stereo: true,
    codec: 'flac',
  },
  { name: '8k.flac', args: ['-c:a', 'flac', '-ar', '8000', '-frame_size', '1000'], codec: 'flac' },
  {
    name: 'exact.flac',
    args: ['-c:a', 'flac', '-exact_rice_parameters', '1'],
    codec: 'flac',
  },
];

const GROUPS: readonly (readonly [string, readonly Case[]])[] = [
  ['WAV in every encoding decodes as ffmpeg decodes it', WAV_CASES],
  ['AIFF, AIFF-C and uncompressed CAF decode as ffmpeg decodes them', AIFF_CAF_CASES],
  ['FLAC decodes bit-exact against ffmpeg', FLAC_CASES],
];

for (const [title, cases] of GROUPS)
  describeWithTool('ffmpeg', title, () => {
    beforeAll(() => encodeAndReference(cases), 120_000);
    for (const c of cases)
      itWithTool(
        'ffmpeg',
        `${c.name}: ${c.args.join(' ')}${c.stereo ? ', stereo' : ''}`,
        () => expectSameAsFfmpeg(c),
        60_000,
      );
  });
