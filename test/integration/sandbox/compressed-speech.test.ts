/**
 * The sandbox counts the speech of a compressed upload with the import's estimate, as it counts a WAV's:
 * one clip of real speech (the speech sample of the decoder tests, looped to 60 s) followed by 20 s of
 * silence, so its speech is far from the 85 % of the duration the sandbox once assumed for compressed
 * audio. Debian's ffmpeg encodes it as recorders and browsers write it; each upload's speech time is
 * within 0.5 s of the WAV's. AAC, which no decoder in the product decodes, keeps the estimate; a file
 * whose audio its decoder finds damaged is refused (docs/spec-decisions.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { WIRE } from '../../../shared/api/wire';
import { oggCrc32 } from '../../../main/audio/decode/ogg-pages';
import { UNDECODED_SPEECH_SHARE } from '../../../main/sandbox/audio-probe';
import { ffmpeg } from '../../support/ffmpeg';
import { itWithTool } from '../../support/reference-tools';
import { speechSource } from '../../support/speech-source';
import {
  createAccount,
  errorOf,
  KEYS,
  parseWire,
  startTestSandbox,
  upload,
  type TestSandbox,
} from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'vs-sandbox-compressed-'));

/** 60 s of the speech sample (looped), then 20 s of silence: mono 16 kHz 16-bit WAV. */
const clipWav = (): string => {
  const out = join(dir, 'clip.wav');
  ffmpeg([
    ...['-stream_loop', '-1', '-i', speechSource(dir)],
    ...['-af', 'atrim=end=60,apad=pad_dur=20', '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', out],
  ]);
  return out;
};

const encode = (wavPath: string, name: string, args: string[]): Uint8Array => {
  const out = join(dir, name);
  ffmpeg(['-i', wavPath, ...args, out]);
  return readFileSync(out);
};

let t: TestSandbox;
let account: string;
beforeAll(async () => {
  t = await startTestSandbox();
  account = await createAccount(t.sb);
});
afterAll(async () => {
  await t.sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The Ogg Vorbis file with its setup header's packet type changed (5, the Vorbis specification's setup
 * header, to 7) and its page checksum made right again: the container and the first two headers still
 * read, the stream cannot be decoded.
 */
const damagedSetupHeader = (ogg: Uint8Array): Uint8Array => {
  const b = Uint8Array.from(ogg);
  const at = Buffer.from(b).indexOf(Buffer.from('\x05vorbis', 'latin1'));
  if (at < 0) throw new Error('no Vorbis setup header found');
  b[at] = 7;
  const page = Buffer.from(b).lastIndexOf(Buffer.from('OggS'), at);
  const segments = b[page + 26]!;
  let length = 27 + segments;
  for (let i = 0; i < segments; i++) length += b[page + 27 + i]!;
  b.fill(0, page + 22, page + 26);
  new DataView(b.buffer).setUint32(page + 22, oggCrc32(b.subarray(page, page + length)), true);
  return b;
};

const uploaded = async (bytes: Uint8Array) => {
  const a = await upload(t.sb, 'v1.3', KEYS.active, bytes, { account_id: account });
  expect(a.status, a.text).toBe(200);
  return parseWire(WIRE['v1.3'].recording, a);
};

const ENCODINGS: readonly { name: string; file: string; format: string; args: string[] }[] = [
  { name: 'MP3, 16 kHz, 64 kbps', file: 'a.mp3', format: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '64k'] },
  {
    name: 'MP3, 44.1 kHz, 128 kbps',
    file: 'b.mp3',
    format: 'mp3',
    args: ['-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '128k'],
  },
  { name: 'Ogg Vorbis, quality 4', file: 'a.ogg', format: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '4'] },
  { name: 'Ogg Opus, 64 kbps', file: 'a.opus', format: 'ogg', args: ['-c:a', 'libopus', '-b:a', '64k'] },
  { name: 'MP4 with Opus, 64 kbps', file: 'a.mp4', format: 'mp4', args: ['-c:a', 'libopus', '-b:a', '64k'] },
];

describe('a compressed upload: speech measured by the import estimate, as for the same clip in WAV', () => {
  let wavPath: string;
  let wavSpeech: number;
  let duration: number;
  beforeAll(() => {
    wavPath = clipWav();
  });

  itWithTool(
    'ffmpeg',
    'the WAV clip: its speech is far from 85 % of its 80 s',
    async () => {
      const r = await uploaded(readFileSync(wavPath));
      wavSpeech = r.speech_duration_seconds;
      duration = r.audio_duration_seconds;
      expect(duration).toBeCloseTo(80, 1);
      expect(wavSpeech).toBeGreaterThanOrEqual(30);
      expect(Math.abs(wavSpeech - UNDECODED_SPEECH_SHARE * duration)).toBeGreaterThan(5);
    },
    120_000,
  );

  for (const e of ENCODINGS) {
    itWithTool(
      'ffmpeg',
      `${e.name}: within 0.5 s of the WAV's speech`,
      async () => {
        expect(wavSpeech, 'the WAV clip is measured first').toBeGreaterThan(0);
        const r = await uploaded(encode(wavPath, e.file, e.args));
        expect(r.audio_file_format).toBe(e.format);
        expect(Math.abs(r.speech_duration_seconds - wavSpeech)).toBeLessThanOrEqual(0.5);
      },
      120_000,
    );
  }

  itWithTool(
    'ffmpeg',
    'M4A with AAC, which no decoder in the product decodes: 85 % of the duration, as before',
    async () => {
      const r = await uploaded(encode(wavPath, 'a.m4a', ['-c:a', 'aac', '-b:a', '64k']));
      expect(r.audio_file_format).toBe('mp4');
      expect(r.speech_duration_seconds).toBeCloseTo(UNDECODED_SPEECH_SHARE * r.audio_duration_seconds, 6);
    },
    120_000,
  );

  itWithTool(
    'ffmpeg',
    'an Ogg Vorbis file whose audio cannot be decoded (damaged setup header): 400 InvalidAudio, no speech guessed',
    async () => {
      const ogg = encode(wavPath, 'damaged.ogg', ['-c:a', 'libvorbis', '-q:a', '4']);
      const a = await upload(t.sb, 'v1.3', KEYS.active, damagedSetupHeader(ogg), { account_id: account });
      expect(a.status, a.text).toBe(400);
      const e = errorOf(a);
      expect(e.type).toBe('InvalidAudio');
      expect(e.message).toMatch(/cannot be decoded/);
    },
    120_000,
  );
});
