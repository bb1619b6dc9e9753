import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAudioDecoder } from '../../../main/audio/decode';
import { ALAW_TO_FLOAT, MULAW_TO_FLOAT } from '../../../main/audio/decode/g711';
import { parseWavHeader } from '../../../main/audio/wav';
import { fmtChunk, riffFile } from '../../fixtures/audio';
import { itWithTool } from '../../support/reference-tools';

const dir = mkdtempSync(join(tmpdir(), 'vs-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Uint8Array): string => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};

describe('opening a recording for decoding', () => {
  it('a file no format recognises is refused as unknown_format, in a researcher’s words', async () => {
    const r = await openAudioDecoder(file('notes.txt', new TextEncoder().encode('minutes of the meeting')));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'unknown_format' });
  });

  it('a missing file is unreadable', async () => {
    const r = await openAudioDecoder(join(dir, 'absent.wav'));
    expect(!r.ok && r.error.code).toBe('unreadable');
  });

  it('the plain WAV header parser still refuses A-law; the decoder reads it', async () => {
    const wav = riffFile([
      fmtChunk({ formatTag: 6, channels: 1, sampleRateHz: 8000, bitsPerSample: 8, blockAlign: 1 }),
      { id: 'data', data: Uint8Array.from([0xd5, 0x55, 0x2a, 0xaa]) },
    ]);
    expect(parseWavHeader(wav).ok).toBe(false);
    const r = await openAudioDecoder(file('alaw.wav', wav));
    if (!r.ok) throw new Error(r.error.detail);
    const chunks = [];
    for await (const c of r.value.chunks()) chunks.push(c);
    expect(Array.from(chunks[0]!.channels[0]!)).toEqual([
      8 / 32768,
      -8 / 32768,
      -32256 / 32768,
      32256 / 32768,
    ]);
  });

  it('G.711 tables: µ-law 0xFF and 0x7F are the two zeros, 0x00 the most negative', () => {
    expect(MULAW_TO_FLOAT[0xff]).toBe(0);
    expect(MULAW_TO_FLOAT[0x7f]).toBe(-0);
    expect(MULAW_TO_FLOAT[0x00]! * 32768).toBe(-32124);
    expect(ALAW_TO_FLOAT[0xd5]! * 32768).toBe(8);
  });

  itWithTool(
    'ffmpeg',
    'a FLAC frame whose checksum fails stops the decode with a problem that says where',
    async () => {
      const flac = join(dir, 'tone.flac');
      const made = spawnSync('ffmpeg', [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=d=2',
        '-c:a',
        'flac',
        flac,
      ]);
      expect(made.status).toBe(0);
      const bytes = new Uint8Array(readFileSync(flac));
      const at = bytes.length - 300;
      bytes[at] = bytes[at]! ^ 0x10;
      const r = await openAudioDecoder(file('damaged.flac', bytes));
      if (!r.ok) throw new Error(r.error.detail);
      await expect(async () => {
        for await (const _ of r.value.chunks());
      }).rejects.toThrow(/damaged about .* s in/);
    },
  );
});
