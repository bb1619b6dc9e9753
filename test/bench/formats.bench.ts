/**
 * Decoding and conversion speed of the formats researchers bring (target: at least 100x real time on
 * one core for FLAC, MP3 and AAC), beside Debian's ffmpeg making the same mono 16 kHz 16-bit WAV from
 * the same file in the same run. Ten minutes of speech-like audio are encoded by ffmpeg into each format
 * (not timed); then, best of three runs each, the product decodes the file (every sample, nothing kept),
 * converts it (`convertDecodedToFile`, the mix of the channels, as `-ac 1` does), and ffmpeg converts it.
 * Times real time are audio seconds per CPU second: this process's CPU for the product (its decoders run
 * in this thread), the child's user and system time for ffmpeg. AAC has no decoder in the product (no
 * AAC decoder under a licence it can ship; docs/audio-formats.md), so its line says so.
 * Alone: `npx tsx test/bench/formats.bench.ts` (VS_BENCH_FORMATS_SECONDS: the audio's length).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertDecodedToFile } from '../../main/audio/convert-decoded';
import { openAudioDecoder } from '../../main/audio/decode';
import { makeWav } from '../fixtures/audio';
import { ffmpeg } from '../support/ffmpeg';

const SECONDS = Number(process.env['VS_BENCH_FORMATS_SECONDS'] ?? 600);
const RUNS = 3;

/** Each format as a device writes it: the file's name, then ffmpeg's arguments from the WAV source. */
const FORMATS: readonly { name: string; file: string; args: string[] }[] = [
  { name: 'FLAC, stereo 48 kHz (field recorder)', file: 'a.flac', args: ['-ar', '48000', '-c:a', 'flac'] },
  {
    name: 'MP3, mono 44.1 kHz 128 kbps',
    file: 'a.mp3',
    args: ['-ac', '1', '-c:a', 'libmp3lame', '-b:a', '128k'],
  },
  {
    name: 'Ogg Opus, mono 48 kHz 32 kbps',
    file: 'a.opus',
    args: ['-ac', '1', '-c:a', 'libopus', '-b:a', '32k'],
  },
  {
    name: 'WebM Opus, stereo 48 kHz 64 kbps (browser)',
    file: 'a.webm',
    args: ['-c:a', 'libopus', '-b:a', '64k'],
  },
  {
    name: 'Ogg Vorbis, mono 44.1 kHz q4',
    file: 'a.ogg',
    args: ['-ac', '1', '-c:a', 'libvorbis', '-q:a', '4'],
  },
  {
    name: 'AAC in M4A, stereo 48 kHz 128 kbps (voice memo)',
    file: 'a.m4a',
    args: ['-ar', '48000', '-c:a', 'aac', '-b:a', '128k'],
  },
];

const cpuSeconds = async (work: () => Promise<void>): Promise<number> => {
  let best = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const c0 = process.cpuUsage();
    await work();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1e6);
  }
  return best;
};

/** The product decodes every sample and keeps none. */
const decodeAll = async (path: string): Promise<void> => {
  const d = await openAudioDecoder(path);
  if (!d.ok) throw new Error(d.error.detail);
  for await (const chunk of d.value.chunks()) void chunk;
};

const convert = async (path: string, out: string): Promise<void> => {
  const d = await openAudioDecoder(path);
  if (!d.ok) throw new Error(d.error.detail);
  await convertDecodedToFile(d.value, 'mix', out);
};

/** ffmpeg's user and system time converting the file, from GNU time. */
const ffmpegCpuSeconds = (path: string, out: string): number => {
  let best = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const r = spawnSync('/usr/bin/time', [
      '-f',
      '%U %S',
      'ffmpeg',
      '-loglevel',
      'error',
      '-y',
      '-threads',
      '1',
      '-i',
      path,
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      out,
    ]);
    if (r.status !== 0) throw new Error(`ffmpeg: ${String(r.stderr)}`);
    const [user, sys] = String(r.stderr).trim().split('\n').pop()!.split(' ').map(Number);
    best = Math.min(best, user! + sys!);
  }
  return best;
};

const x = (cpu: number): string => `${Math.round(SECONDS / cpu)}x`;

export const benchFormats = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-bench-formats-'));
  const out = [
    `${SECONDS} s of audio; load average ${loadavg()[0]!.toFixed(1)}; times real time on one core (CPU)`,
  ];
  try {
    const source = join(dir, 'source.wav');
    writeFileSync(
      source,
      makeWav({
        seconds: SECONDS,
        speechSeconds: SECONDS * 0.75,
        sampleRateHz: 44_100,
        channels: 2,
        seed: 5,
      }),
    );
    for (const f of FORMATS) {
      const path = join(dir, f.file);
      ffmpeg(['-i', source, ...f.args, path]);
      const ours = await openAudioDecoder(path);
      const theirs = ffmpegCpuSeconds(path, join(dir, 'ffmpeg.wav'));
      if (!ours.ok) {
        out.push(
          `${f.name}: not decoded by Voicescope (${ours.error.detail}); ffmpeg converts at ${x(theirs)}`,
        );
        continue;
      }
      const decode = await cpuSeconds(() => decodeAll(path));
      const conversion = await cpuSeconds(() => convert(path, join(dir, 'ours.wav')));
      out.push(
        `${f.name} (${ours.value.info.decoder}): decode ${x(decode)}, conversion ${x(conversion)}; ffmpeg's conversion ${x(theirs)}; ours takes ${(conversion / theirs).toFixed(1)}x ffmpeg's CPU`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchFormats()) console.log(l);
