/**
 * The compressed formats decode to the same audio as ffmpeg's decode of the same file. Real speech (the
 * AMI meeting clip of the speech corpus when present, else a speech-like recording) is encoded by
 * Debian's ffmpeg as browsers, phones and encoders write it; our samples are compared with ffmpeg's
 * decode (for Opus, ffmpeg's libopus decoder: the same library) sample by sample, with no alignment
 * search: pre-skip and encoder delay must already be dropped.
 *
 * "The same audio" here: the difference is at least 40 dB below the signal in every channel (the
 * issue's bound), and the lengths agree to the sample where the container says the length exactly
 * (Ogg granule positions, the LAME tag of MP3); WebM gives its duration in milliseconds, so there the
 * lengths agree within 1 ms. A missing pre-skip, a wrong rate or swapped channels gives far below 0 dB
 * (the last tests show the bound catches them).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AudioDecoder, PcmChunk } from '../../../main/audio/decode/decoder';
import { DECODABLE_FORMATS } from '../../../main/audio/decode/formats';
import { itWithTool } from '../../support/reference-tools';
import { speechSource } from '../../support/speech-source';

const dir = mkdtempSync(join(tmpdir(), 'vs-decode-lossy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ffmpeg = (args: string[]): Buffer => {
  const r = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', ...args], { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(String(r.stderr));
  return r.stdout;
};

let source: string | undefined;

/**
 * Encodes 10 s of the speech (stereo: the second channel is the speech 5 s later, so channels differ):
 * hundreds of codec frames, pauses and voiced stretches, and both ends of the file, which is what the
 * comparison needs; a longer clip only repeats frames.
 */
const encode = (name: string, stereo: boolean, args: string[]): string => {
  const out = join(dir, name);
  source ??= speechSource(dir);
  const stereoGraph = [
    '-filter_complex',
    '[0:a]asplit[a][b];[b]atrim=start=5,asetpts=PTS-STARTPTS[c];[a][c]amerge=inputs=2',
  ];
  ffmpeg(['-i', source, ...(stereo ? stereoGraph : []), '-t', '10', ...args, out]);
  return out;
};

/** ffmpeg's decode, planar. */
const reference = (path: string, channels: number, decoderArgs: string[] = []): Float32Array[] => {
  const raw = ffmpeg([...decoderArgs, '-i', path, '-f', 'f32le', '-']);
  const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const n = all.length / channels;
  return Array.from({ length: channels }, (_, c) =>
    Float32Array.from({ length: n }, (_, i) => all[i * channels + c]!),
  );
};

const open = async (path: string) => {
  const head = new Uint8Array(readFileSync(path).subarray(0, 64));
  const format = DECODABLE_FORMATS.find((f) => f.recognise(head));
  if (!format) throw new Error(`no format recognises ${path}`);
  return format.open(path, head);
};

const collect = async (chunks: AsyncIterable<PcmChunk>): Promise<Float32Array[]> => {
  const parts: (readonly Float32Array[])[] = [];
  for await (const c of chunks) parts.push(c.channels);
  const n = parts.reduce((s, p) => s + p[0]!.length, 0);
  return parts[0]!.map((_, c) => {
    const out = new Float32Array(n);
    let at = 0;
    for (const p of parts) {
      out.set(p[c]!, at);
      at += p[c]!.length;
    }
    return out;
  });
};

/** Signal-to-difference ratio in dB over the reference's length (missing samples count as errors). */
const snrDb = (ours: Float32Array, ref: Float32Array): number => {
  let signal = 0;
  let noise = 0;
  for (let i = 0; i < ref.length; i++) {
    signal += ref[i]! ** 2;
    noise += ((ours[i] ?? 0) - ref[i]!) ** 2;
  }
  return 10 * Math.log10(signal / noise);
};

const decoded = async (path: string): Promise<{ decoder: AudioDecoder; samples: Float32Array[] }> => {
  const r = await open(path);
  if (!r.ok) throw new Error(r.error.detail);
  return { decoder: r.value, samples: await collect(r.value.chunks()) };
};

interface Case {
  readonly name: string;
  readonly file: string;
  readonly stereo: boolean;
  readonly args: string[];
  readonly rate: number;
  readonly container: string;
  readonly codec: string;
  /** Samples the lengths may differ by (0: to the sample). */
  readonly lengthSlack: number;
  readonly referenceDecoder?: string[];
}

const CASES: readonly Case[] = [
  {
    name: 'Ogg Opus, mono, 32 kbps from 16 kHz speech',
    file: 'a.opus',
    stereo: false,
    args: ['-c:a', 'libopus', '-b:a', '32k'],
    rate: 48_000,
    container: 'ogg',
    codec: 'opus',
    lengthSlack: 0,
    referenceDecoder: ['-c:a', 'libopus'],
  },
  {
    name: 'WebM Opus, stereo 48 kHz as browsers record',
    file: 'a.webm',
    stereo: true,
    args: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '64k'],
    rate: 48_000,
    container: 'webm',
    codec: 'opus',
    lengthSlack: 48,
    referenceDecoder: ['-c:a', 'libopus'],
  },
  {
    name: 'Ogg Vorbis, mono 16 kHz, quality 4',
    file: 'a.ogg',
    stereo: false,
    args: ['-c:a', 'libvorbis', '-q:a', '4'],
    rate: 16_000,
    container: 'ogg',
    codec: 'vorbis',
    lengthSlack: 0,
    referenceDecoder: ['-c:a', 'libvorbis'],
  },
  {
    name: 'WebM Vorbis, stereo 44.1 kHz, quality 5 (Matroska gives no end trim: every sample kept)',
    file: 'v.webm',
    stereo: true,
    args: ['-ar', '44100', '-c:a', 'libvorbis', '-q:a', '5'],
    rate: 44_100,
    container: 'webm',
    codec: 'vorbis',
    lengthSlack: 0,
    referenceDecoder: ['-c:a', 'libvorbis'],
  },
  {
    name: 'MP3, mono 16 kHz, 64 kbps (MPEG-2), gapless',
    file: 'a.mp3',
    stereo: false,
    args: ['-c:a', 'libmp3lame', '-b:a', '64k'],
    rate: 16_000,
    container: 'mp3',
    codec: 'mp3',
    lengthSlack: 0,
  },
  {
    name: 'MP3, stereo 44.1 kHz, 128 kbps (MPEG-1), gapless',
    file: 'b.mp3',
    stereo: true,
    args: ['-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '128k'],
    rate: 44_100,
    container: 'mp3',
    codec: 'mp3',
    lengthSlack: 0,
  },
  {
    name: 'MP3, mono 8 kHz, 24 kbps (MPEG-2.5), telephone-like',
    file: 'c.mp3',
    stereo: false,
    args: ['-ar', '8000', '-c:a', 'libmp3lame', '-b:a', '24k'],
    rate: 8_000,
    container: 'mp3',
    codec: 'mp3',
    lengthSlack: 0,
  },
];

describe('compressed recordings decode to the same audio as ffmpeg decodes', () => {
  for (const c of CASES) {
    itWithTool(
      'ffmpeg',
      `${c.name}: every channel at least 40 dB above the difference, same length`,
      async () => {
        const path = encode(c.file, c.stereo, c.args);
        const channels = c.stereo ? 2 : 1;
        const { decoder, samples } = await decoded(path);
        expect(decoder.info).toMatchObject({
          container: c.container,
          codec: c.codec,
          channels,
          sampleRateHz: c.rate,
        });
        const ref = reference(path, channels, c.referenceDecoder);
        expect(Math.abs(samples[0]!.length - ref[0]!.length)).toBeLessThanOrEqual(c.lengthSlack);
        for (let ch = 0; ch < channels; ch++)
          expect(snrDb(samples[ch]!, ref[ch]!)).toBeGreaterThanOrEqual(40);
        expect(Math.abs(decoder.info.durationSeconds! - ref[0]!.length / c.rate)).toBeLessThan(0.025);
      },
      60_000,
    );
  }

  itWithTool(
    'ffmpeg',
    'decoding again starts again from the start and gives the same samples',
    async () => {
      const { decoder, samples } = await decoded(
        encode('again.mp3', false, ['-c:a', 'libmp3lame', '-b:a', '64k']),
      );
      const second = await collect(decoder.chunks());
      expect(snrDb(second[0]!, samples[0]!)).toBe(Infinity);
    },
    60_000,
  );

  itWithTool(
    'ffmpeg',
    'the 40 dB bound catches a missing pre-skip, swapped channels and a wrong rate',
    async () => {
      const path = encode('check.webm', true, ['-ar', '48000', '-c:a', 'libopus', '-b:a', '64k']);
      const { samples } = await decoded(path);
      const ref = reference(path, 2, ['-c:a', 'libopus']);
      const shifted = new Float32Array(samples[0]!.length + 312);
      shifted.set(samples[0]!, 312); // what the decoder gives before pre-skip is dropped
      expect(snrDb(shifted, ref[0]!)).toBeLessThan(10);
      expect(snrDb(samples[1]!, ref[0]!)).toBeLessThan(10); // the other channel
      const halfRate = Float32Array.from({ length: samples[0]!.length / 2 }, (_, i) => samples[0]![2 * i]!);
      expect(snrDb(halfRate, ref[0]!)).toBeLessThan(10);
    },
    60_000,
  );
});

/**
 * The start of a CAF file holding AAC (Apple Core Audio Format specification: file header, then the
 * `desc` chunk first): ffmpeg cannot write AAC into CAF, so the header is laid out here.
 */
const cafAacHead = (): Uint8Array => {
  const b = new Uint8Array(64);
  const v = new DataView(b.buffer);
  b.set(new TextEncoder().encode('caff'), 0);
  v.setUint16(4, 1); // version
  b.set(new TextEncoder().encode('desc'), 8);
  v.setBigInt64(12, 32n); // chunk size
  v.setFloat64(20, 48_000); // sample rate
  b.set(new TextEncoder().encode('aac '), 28);
  v.setUint32(36, 0); // format flags
  v.setUint32(40, 0); // bytes per packet: variable
  v.setUint32(44, 1024); // frames per packet
  v.setUint32(48, 2); // channels
  return b;
};

const expectAacNamed = (r: Awaited<ReturnType<typeof open>>): void => {
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.error.code).toBe('no_decoder');
  expect(r.error.detail).toMatch(/AAC audio/);
  expect(r.error.detail).toMatch(/GPL/);
  expect(r.error.detail).toMatch(/Convert the file to WAV/);
};

describe('AAC is recognised and named as not decoded, with why and what to do', () => {
  itWithTool(
    'ffmpeg',
    'stereo 48 kHz AAC in M4A, as voice-memo apps write it',
    async () => {
      expectAacNamed(await open(encode('memo.m4a', true, ['-ar', '48000', '-c:a', 'aac', '-b:a', '128k'])));
    },
    60_000,
  );

  it('AAC in CAF', async () => {
    const path = join(dir, 'memo.caf');
    writeFileSync(path, cafAacHead());
    expectAacNamed(await open(path));
  });
});
