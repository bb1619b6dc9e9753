/**
 * Converting any decodable recording gives the same file as converting ffmpeg's WAV decode of it through
 * the WAV conversion: stereo speech encoded by Debian's ffmpeg (the second channel the speech 5 s later,
 * so the channel sent matters) is converted both ways with the second channel chosen. Lossless formats
 * must give the same bytes; lossy ones the same length, with the difference at least 40 dB below the
 * signal (the decoders' own bound against ffmpeg's decode).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { openAudioDecoder } from '../../../main/audio/decode';
import { convertDecodedToMono16k } from '../../../main/audio/convert-decoded';
import { convertWavToMono16k } from '../../../main/audio/convert-wav';
import { parseWavHeader, readMonoSamples } from '../../../main/audio/wav';
import { makeWav } from '../../fixtures/audio';
import { itWithTool } from '../../support/reference-tools';

const dir = mkdtempSync(join(tmpdir(), 'vs-convert-decoded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ffmpeg = (args: string[]): void => {
  const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(String(r.stderr));
};

const speech = join(dir, 'speech.wav');
writeFileSync(speech, makeWav({ seconds: 20, speechSeconds: 16, sampleRateHz: 16_000, seed: 11 }));

const encodeStereo = (name: string, args: readonly string[]): string => {
  const out = join(dir, name);
  const graph = '[0:a]asplit[a][b];[b]atrim=start=5,asetpts=PTS-STARTPTS[c];[a][c]amerge=inputs=2';
  ffmpeg(['-i', speech, '-filter_complex', graph, '-t', '15', ...args, out]);
  return out;
};

/** Today's path: ffmpeg decodes the file to float WAV, which the WAV conversion converts. */
const throughWav = async (file: string) => {
  const wav = `${file}.ref.wav`;
  ffmpeg(['-i', file, '-c:a', 'pcm_f32le', wav]);
  const bytes = new Uint8Array(readFileSync(wav));
  const info = parseWavHeader(bytes);
  if (!info.ok) throw new Error(info.error.detail);
  return convertWavToMono16k(bytes, info.value, 2);
};

const throughDecoder = async (file: string) => {
  const d = await openAudioDecoder(file);
  if (!d.ok) throw new Error(d.error.detail);
  return convertDecodedToMono16k(d.value, 2);
};

const samples = (wav: Uint8Array): Float32Array => {
  const info = parseWavHeader(wav);
  if (!info.ok) throw new Error(info.error.detail);
  return readMonoSamples(wav, info.value);
};

/** Signal over difference, in dB. */
const snrDb = (ours: Float32Array, ref: Float32Array): number => {
  let s = 0;
  let d = 0;
  for (let i = 0; i < ref.length; i++) {
    s += ref[i]! ** 2;
    d += (ours[i]! - ref[i]!) ** 2;
  }
  return 10 * Math.log10(s / Math.max(d, 1e-30));
};

const CASES = [
  { name: 'FLAC, 44.1 kHz', file: 'a.flac', args: ['-ar', '44100', '-c:a', 'flac'], lossless: true },
  { name: 'AIFF, 48 kHz', file: 'a.aiff', args: ['-ar', '48000', '-c:a', 'pcm_s16be'], lossless: true },
  { name: 'Ogg Opus, 48 kHz', file: 'a.opus', args: ['-c:a', 'libopus', '-b:a', '64k'], lossless: false },
  {
    name: 'MP3, 44.1 kHz',
    file: 'a.mp3',
    args: ['-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '128k'],
    lossless: false,
  },
] as const;

for (const c of CASES) {
  itWithTool(
    'ffmpeg',
    `${c.name} stereo converts to what its WAV decode converts to, naming its decoder`,
    async () => {
      const file = encodeStereo(c.file, c.args);
      const before = readFileSync(file);
      const [ours, ref] = [await throughDecoder(file), await throughWav(file)];
      expect(readFileSync(file).equals(before)).toBe(true); // the original is untouched
      expect(ours).toMatchObject({ channel: 2, mixedDown: false, resampledFromHz: ref.resampledFromHz });
      expect(ours.decodedBy.decoder).not.toBe('');
      expect(ours.bytes.length).toBe(ref.bytes.length);
      if (c.lossless) expect(Buffer.from(ours.bytes).equals(Buffer.from(ref.bytes))).toBe(true);
      else expect(snrDb(samples(ours.bytes), samples(ref.bytes))).toBeGreaterThanOrEqual(40);
    },
    60_000,
  );
}

itWithTool(
  'ffmpeg',
  'the bound catches the wrong channel: channel 1 against channel 2 is far below 40 dB',
  async () => {
    const file = encodeStereo('b.opus', ['-c:a', 'libopus', '-b:a', '64k']);
    const d = await openAudioDecoder(file);
    if (!d.ok) throw new Error(d.error.detail);
    const first = await convertDecodedToMono16k(d.value, 1);
    expect(snrDb(samples(first.bytes), samples((await throughWav(file)).bytes))).toBeLessThan(10);
  },
);
