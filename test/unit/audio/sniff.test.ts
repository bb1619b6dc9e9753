import { describe, expect, it } from 'vitest';
import { isMpegAudioFrameHeader, sniffContainer, SNIFF_BYTES } from '../../../main/audio/sniff';
import {
  makeMp3Header,
  makeMp4Header,
  makeOggHeader,
  makeWav,
  riffFile,
  fmtChunk,
} from '../../fixtures/audio';

const bytes = (...xs: (number | string)[]): Uint8Array =>
  Uint8Array.from(xs.flatMap((x) => (typeof x === 'string' ? [...x].map((c) => c.charCodeAt(0)) : [x])));

describe('sniffContainer', () => {
  it('recognises each container from the generated headers', () => {
    expect(sniffContainer(makeWav({ seconds: 1, speechSeconds: 0.5 }))).toBe('wav');
    expect(sniffContainer(makeMp3Header())).toBe('mp3');
    expect(sniffContainer(makeMp3Header({ id3: false }))).toBe('mp3');
    expect(sniffContainer(makeOggHeader())).toBe('ogg');
    expect(sniffContainer(makeMp4Header())).toBe('mp4');
  });

  it('treats RF64, BW64 and big-endian RIFX WAVE files as wav', () => {
    for (const magic of ['RF64', 'BW64', 'RIFX']) {
      expect(
        sniffContainer(
          riffFile([fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: 8000, bitsPerSample: 16 })], {
            magic,
          }),
        ),
      ).toBe('wav');
    }
  });

  it('needs only the first 64 bytes', () => {
    const wav = makeWav({ seconds: 1, speechSeconds: 0.5 });
    for (const b of [wav, makeMp3Header(), makeOggHeader(), makeMp4Header()]) {
      expect(sniffContainer(b.subarray(0, SNIFF_BYTES))).toBe(sniffContainer(b));
    }
    // Whatever follows the first 64 bytes is not looked at.
    const late = new Uint8Array(200);
    late.set(makeOggHeader(), 64);
    expect(sniffContainer(late)).toBeNull();
  });

  it('refuses other RIFF forms, other files and too-short headers', () => {
    expect(sniffContainer(riffFile([], { form: 'AVI ' }))).toBeNull();
    expect(sniffContainer(bytes('RIFF'))).toBeNull();
    expect(sniffContainer(new Uint8Array(0))).toBeNull();
    expect(sniffContainer(bytes('{"audio": "hello"}'))).toBeNull();
    expect(sniffContainer(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0))).toBeNull();
    expect(sniffContainer(bytes('fLaC', 0, 0, 0, 34))).toBeNull();
    expect(sniffContainer(bytes('ID3'))).toBeNull(); // no version yet
    expect(sniffContainer(bytes('OggS', 1))).toBeNull(); // unknown Ogg version
  });

  it('accepts MPEG audio layers I–III and refuses ADTS AAC and invalid frame headers', () => {
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xfb, 0x90, 0x64))).toBe(true); // MPEG-1 layer III
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xfd, 0x90, 0x64))).toBe(true); // MPEG-1 layer II
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xf3, 0x90, 0x64))).toBe(true); // MPEG-2 layer III
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xe3, 0x90, 0x64))).toBe(true); // MPEG-2.5 layer III
    expect(sniffContainer(bytes(0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc))).toBeNull(); // ADTS AAC: layer 00
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xeb, 0x90, 0x64))).toBe(false); // reserved version
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xfb, 0xf0, 0x64))).toBe(false); // bit-rate index 15
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xfb, 0x9c, 0x64))).toBe(false); // sample-rate index 3
    expect(isMpegAudioFrameHeader(bytes(0xfe, 0xfb, 0x90, 0x64))).toBe(false); // no sync
    expect(isMpegAudioFrameHeader(bytes(0xff, 0xfb, 0x90))).toBe(false); // too short
  });
});
