/**
 * What the window plays for a recording. The window is a Chromium page: it plays the original file
 * whenever Chromium decodes its format, and otherwise a 16-bit PCM WAV copy decoded here
 * (main/audio/decoded-samples.ts), written once to a folder of playback copies and played from there.
 *
 * Which formats Chromium plays was found by trying them in Debian's Chromium (the one the end-to-end
 * tests use), with an audio element and with the Web Audio decoder the waveform uses: WAV holding
 * PCM, float, A-law or µ-law; FLAC; MP3; Ogg and WebM with Opus or Vorbis. It plays neither AIFF, CAF,
 * WAV with IMA or Microsoft ADPCM, nor MP4 holding Opus or MP3: those get the decoded copy.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { AudioDecoder, DecodedStreamInfo } from './decode/decoder';

/** The container and codecs Chromium plays as they are, and the content type each is served as. */
const PLAYED_AS_IS: Readonly<Record<string, { type: string; codecs: readonly string[] | 'any' }>> = {
  wav: { type: 'audio/wav', codecs: ['pcm', 'float', 'alaw', 'mulaw'] },
  flac: { type: 'audio/flac', codecs: 'any' },
  mp3: { type: 'audio/mpeg', codecs: 'any' },
  ogg: { type: 'audio/ogg', codecs: 'any' },
  webm: { type: 'audio/webm', codecs: 'any' },
};

/** The content type to serve the original as when the window plays it; null when it needs the decoded copy. */
export const playedAsIs = (info: Pick<DecodedStreamInfo, 'container' | 'codec'>): string | null => {
  const entry = PLAYED_AS_IS[info.container];
  if (entry === undefined) return null;
  return entry.codecs === 'any' || entry.codecs.includes(info.codec) ? entry.type : null;
};

/** How many decoded copies are kept; the least recently played is removed first. */
export const PLAYBACK_COPIES_KEPT = 4;

const header = (channels: number, rate: number, dataBytes: number): Uint8Array => {
  const out = new Uint8Array(44);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, Math.min(0xffffffff, 36 + dataBytes), true);
  ascii(8, 'WAVEfmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * channels * 2, true);
  v.setUint16(32, channels * 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, Math.min(0xffffffff, dataBytes), true);
  return out;
};

const interleave16 = (channels: readonly Float32Array[]): Uint8Array => {
  const n = channels[0]!.length;
  const out = new Uint8Array(n * channels.length * 2);
  const v = new DataView(out.buffer);
  let at = 0;
  for (let i = 0; i < n; i++)
    for (const ch of channels) {
      const x = Math.max(-1, Math.min(1, ch[i]!));
      v.setInt16(at, Math.round(x < 0 ? x * 32768 : x * 32767), true);
      at += 2;
    }
  return out;
};

/** Decodes the whole recording into a 16-bit PCM WAV file at `target`, a chunk at a time. */
export const writeDecodedWav = async (decoder: AudioDecoder, target: string): Promise<void> => {
  const { channels, sampleRateHz } = decoder.info;
  const fh = await open(target, 'w', 0o600);
  try {
    let dataBytes = 0;
    await fh.write(header(channels, Math.round(sampleRateHz), 0), 0, 44, 0);
    for await (const chunk of decoder.chunks()) {
      if (chunk.channels.length === 0 || chunk.channels[0]!.length === 0) continue;
      const bytes = interleave16(chunk.channels);
      await fh.write(bytes, 0, bytes.length, 44 + dataBytes);
      dataBytes += bytes.length;
    }
    await fh.write(header(channels, Math.round(sampleRateHz), dataBytes), 0, 44, 0);
  } finally {
    await fh.close();
  }
};

/**
 * The decoded copy of a recording in `dir`, named by `key` (the original's hash, size and time):
 * made when first asked, then reused; the folder keeps the last few played.
 */
export const playbackCopy = async (decoder: AudioDecoder, dir: string, key: string): Promise<string> => {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${key}.wav`);
  const now = new Date();
  const existing = await stat(path).catch(() => null);
  if (existing?.isFile()) {
    await utimes(path, now, now);
    return path;
  }
  const partial = join(dir, `.${randomUUID()}.part`);
  try {
    await writeDecodedWav(decoder, partial);
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
  await keepNewest(dir, PLAYBACK_COPIES_KEPT);
  return path;
};

const keepNewest = async (dir: string, kept: number): Promise<void> => {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.wav'));
  const dated = await Promise.all(
    names.map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => b.t - a.t);
  for (const { n } of dated.slice(kept)) await rm(join(dir, n), { force: true });
};
