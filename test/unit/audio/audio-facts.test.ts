import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countMp3Frames } from '../../../main/audio/mp3-frames';
import { readMp4AudioConfig } from '../../../main/audio/mp4-audio-config';
import { probeAudio } from '../../../main/audio/probe';
import { parseWavHeader } from '../../../main/audio/wav';
import { judgeAudio } from '../../../main/import/local-verdict';
import { makeMp3 } from '../../fixtures/compressed-audio';
import { makeWav } from '../../fixtures/audio';
import { itWithTool } from '../../support/reference-tools';

const dir = mkdtempSync(join(tmpdir(), 'vs-facts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real encoded file made by ffmpeg from a tone (the test is skipped where ffmpeg is missing). */
const encode = (name: string, args: string[]): Uint8Array => {
  const out = join(dir, name);
  const r = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=40',
    ...args,
    out,
  ]);
  if (r.status !== 0) throw new Error(String(r.stderr));
  return new Uint8Array(readFileSync(out));
};
const plain = { isolateOldestSpeaker: false, conversion: false };

describe('audio facts come from the audio, not only from headers', () => {
  itWithTool('ffmpeg', 'mono AAC in M4A is one channel (the sample entry says two)', async () => {
    const m4a = encode('mono.m4a', ['-ac', '1', '-c:a', 'aac', '-b:a', '64k']);
    expect(readMp4AudioConfig(m4a)).toMatchObject({ channels: 1, objectType: 2 });
    const p = await probeAudio(m4a);
    expect(p.ok && p.value).toMatchObject({ format: 'mp4', channels: 1 });
  });

  itWithTool('ffmpeg', 'stereo AAC in MP4 is two channels', async () => {
    const mp4 = encode('stereo.mp4', ['-ac', '2', '-c:a', 'aac', '-b:a', '96k']);
    const p = await probeAudio(mp4);
    expect(p.ok && p.value.channels).toBe(2);
  });

  itWithTool(
    'ffmpeg',
    'an MP3 cut mid-frame keeps only what is there, and says it is truncated',
    async () => {
      const whole = encode('whole.mp3', ['-ac', '1', '-c:a', 'libmp3lame', '-b:a', '64k']);
      const cut = whole.subarray(0, Math.floor(whole.length / 2) + 77);
      const p = await probeAudio(cut);
      if (!p.ok) throw new Error(p.error.message);
      expect(p.value.durationSeconds).toBeGreaterThan(18);
      expect(p.value.durationSeconds).toBeLessThan(22);
      expect(p.value.truncated).toBe(true);
      expect(judgeAudio(p.value, plain).findings.map((f) => f.code)).toContain('truncated');
      const full = await probeAudio(whole);
      expect(full.ok && full.value.truncated).toBe(false);
      expect(full.ok && full.value.durationSeconds).toBeCloseTo(40, 0);
    },
  );

  it('MP3 frames are counted to the end (generated constant-bit-rate frames)', () => {
    const mp3 = makeMp3({ seconds: 36, kbps: 64 });
    const f = countMp3Frames(mp3)!;
    expect(f.durationSeconds).toBeCloseTo(36, 0);
    expect(f.truncated).toBe(false);
    expect(countMp3Frames(mp3.subarray(0, mp3.length - 100))!.truncated).toBe(true);
  });

  it('a WAV whose data chunk claims more than the file holds is measured as it is, with a warning', async () => {
    const wav = makeWav({ seconds: 40, speechSeconds: 36 });
    const cut = wav.subarray(0, 44 + 16_000 * 2 * 20);
    const h = parseWavHeader(cut);
    expect(h.ok && h.value).toMatchObject({ truncated: true });
    expect(h.ok && h.value.durationSeconds).toBeCloseTo(20, 3);
    const p = await probeAudio(cut);
    if (!p.ok) throw new Error(p.error.message);
    expect(judgeAudio(p.value, plain).findings.map((f) => `${f.severity}:${f.code}`)).toContain(
      'warn:truncated',
    );
  });

  it('a WAV header read from the first bytes and the real length gives the same facts as the whole file', () => {
    const wav = makeWav({ seconds: 30, speechSeconds: 20 });
    const whole = parseWavHeader(wav);
    const head = parseWavHeader(wav.subarray(0, 4096), wav.length);
    expect(head).toEqual(whole);
  });
});
