/**
 * A FLAC file behind an ID3v2 tag (some taggers write one there) is FLAC, not MP3: the decoders open it
 * with the FLAC decoder and give the samples of the same file without the tag, and the import's sniffing
 * names it FLAC (a format conversion sends), whether the tag is short or longer than the first bytes read.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { openAudioDecoder } from '../../../main/audio/decode';
import { FLAC_DECODER } from '../../../main/audio/decode/flac-decoder';
import { recogniseOtherFormat } from '../../../main/audio/other-formats';
import { sniffContainer } from '../../../main/audio/sniff';
import { makeWav } from '../../fixtures/audio';
import { itWithTool } from '../../support/reference-tools';

const dir = mkdtempSync(join(tmpdir(), 'vs-id3-flac-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An ID3v2.4 tag with one title frame and `padding` zero bytes after it. */
const id3Tag = (padding: number): Uint8Array => {
  const title = new TextEncoder().encode('\u0003Interview 3');
  const frame = new Uint8Array(10 + title.length);
  frame.set(new TextEncoder().encode('TIT2'));
  frame[7] = title.length; // syncsafe size, < 128
  frame.set(title, 10);
  const size = frame.length + padding;
  const tag = new Uint8Array(10 + size);
  tag.set([
    0x49,
    0x44,
    0x33,
    4,
    0,
    0,
    (size >> 21) & 0x7f,
    (size >> 14) & 0x7f,
    (size >> 7) & 0x7f,
    size & 0x7f,
  ]);
  tag.set(frame, 10);
  return tag;
};

const flacFile = (): string => {
  const wav = join(dir, 'speech.wav');
  writeFileSync(wav, makeWav({ seconds: 6, speechSeconds: 5, sampleRateHz: 44_100, channels: 2, seed: 3 }));
  const flac = join(dir, 'speech.flac');
  const r = spawnSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    wav,
    '-c:a',
    'flac',
    flac,
  ]);
  if (r.status !== 0) throw new Error(String(r.stderr));
  return flac;
};

const tagged = (flac: string, padding: number): string => {
  const out = join(dir, `tagged-${padding}.flac`);
  const tag = id3Tag(padding);
  const body = readFileSync(flac);
  const bytes = new Uint8Array(tag.length + body.length);
  bytes.set(tag);
  bytes.set(body, tag.length);
  writeFileSync(out, bytes);
  return out;
};

const decodeAll = async (path: string) => {
  const d = await openAudioDecoder(path);
  if (!d.ok) throw new Error(d.error.detail);
  const left: number[] = [];
  for await (const c of d.value.chunks()) left.push(...c.channels[0]!);
  return { decoder: d.value.info.decoder, channels: d.value.info.channels, left: Float32Array.from(left) };
};

describe('a FLAC file behind an ID3v2 tag', () => {
  for (const padding of [0, 20_000]) {
    itWithTool(
      'ffmpeg',
      `is decoded as FLAC, to the sample (tag of ${10 + 23 + padding} bytes)`,
      async () => {
        const flac = flacFile();
        const plain = await decodeAll(flac);
        const withTag = await decodeAll(tagged(flac, padding));
        expect(withTag.decoder).toBe(FLAC_DECODER);
        expect(withTag.channels).toBe(2);
        expect(withTag.left.length).toBe(plain.left.length);
        expect(Buffer.from(withTag.left.buffer).equals(Buffer.from(plain.left.buffer))).toBe(true);
      },
    );
  }

  itWithTool('ffmpeg', 'is named FLAC by the import, not MP3', () => {
    const head = readFileSync(tagged(flacFile(), 0)).subarray(0, 1 << 20);
    expect(sniffContainer(head)).toBeNull();
    expect(recogniseOtherFormat(head)?.name).toBe('FLAC');
  });
});
