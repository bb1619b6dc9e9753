import { describe, expect, it } from 'vitest';
import { parseWavHeader, readMonoSamples, type WavInfo } from '../../../main/audio/wav';
import {
  encodeSamples,
  encodeWav,
  fmtChunk,
  listInfoChunk,
  makeMp3Header,
  makeMp4Header,
  riffFile,
  seededRandom,
  WAV_FORMATS,
  type RiffChunk,
  type WavFormat,
} from '../../fixtures/audio';

const SR = 16_000;

/** A test signal that covers the whole range: a sine sweep, full-scale extremes and random values. */
const testSignal = (n: number, seed = 1): Float32Array => {
  const rnd = seededRandom(seed);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++)
    x[i] =
      i % 97 === 0
        ? -1
        : i % 89 === 0
          ? 0.99
          : i % 3 === 0
            ? 0.99 * (2 * rnd() - 1)
            : 0.8 * Math.sin(i * 0.07);
  return x;
};

const parsed = (bytes: Uint8Array): WavInfo => {
  const r = parseWavHeader(bytes);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.detail}`);
  return r.value;
};

const problemOf = (bytes: Uint8Array) => {
  const r = parseWavHeader(bytes);
  if (r.ok) throw new Error('expected a problem');
  return r.error;
};

const maxDiff = (a: Float32Array, b: Float32Array): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

const EXPECT: Record<
  WavFormat,
  { tag: number; codec: 'pcm' | 'float'; bits: number; valid: number; ext: boolean; tolerance: number }
> = {
  pcm8: { tag: 1, codec: 'pcm', bits: 8, valid: 8, ext: false, tolerance: 0.5 / 128 + 1e-7 },
  pcm16: { tag: 1, codec: 'pcm', bits: 16, valid: 16, ext: false, tolerance: 0.5 / 32768 + 1e-7 },
  pcm24: { tag: 1, codec: 'pcm', bits: 24, valid: 24, ext: false, tolerance: 0.5 / 8388608 + 1e-7 },
  pcm32: { tag: 1, codec: 'pcm', bits: 32, valid: 32, ext: false, tolerance: 1e-7 },
  float32: { tag: 3, codec: 'float', bits: 32, valid: 32, ext: false, tolerance: 0 },
  float64: { tag: 3, codec: 'float', bits: 64, valid: 64, ext: false, tolerance: 0 },
  'extensible-pcm16': {
    tag: 0xfffe,
    codec: 'pcm',
    bits: 16,
    valid: 16,
    ext: true,
    tolerance: 0.5 / 32768 + 1e-7,
  },
  'extensible-float32': { tag: 0xfffe, codec: 'float', bits: 32, valid: 32, ext: true, tolerance: 0 },
  'extensible-pcm24in32': {
    tag: 0xfffe,
    codec: 'pcm',
    bits: 32,
    valid: 24,
    ext: true,
    tolerance: 0.5 / 8388608 + 1e-7,
  },
};

const ascii = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));

describe('parseWavHeader and readMonoSamples: every supported encoding round-trips', () => {
  const signal = testSignal(4_001);
  for (const format of WAV_FORMATS) {
    it(format, () => {
      const e = EXPECT[format];
      const wav = encodeWav([signal], { sampleRateHz: SR, format });
      const info = parsed(wav);
      expect(info).toMatchObject({
        codec: e.codec,
        formatTag: e.tag,
        extensible: e.ext,
        channels: 1,
        sampleRateHz: SR,
        bitsPerSample: e.bits,
        validBitsPerSample: e.valid,
        blockAlign: e.bits / 8,
        dataBytes: signal.length * (e.bits / 8),
        frames: signal.length,
        truncated: false,
      });
      expect(info.durationSeconds).toBeCloseTo(4_001 / SR, 12);
      expect(info.bitRateBps).toBe(SR * e.bits);
      expect(ascii(wav, info.dataOffset - 8)).toBe('data');
      expect(info.dataOffset + info.dataBytes + (info.dataBytes % 2)).toBe(wav.length); // odd data is padded
      const decoded = readMonoSamples(wav, info);
      expect(maxDiff(decoded, signal)).toBeLessThanOrEqual(e.tolerance);
      for (const v of decoded) expect(Math.abs(v)).toBeLessThanOrEqual(1);
    });
  }

  it('maps the extremes of each integer width onto [-1, 1)', () => {
    const eight = riffFile([
      fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: SR, bitsPerSample: 8 }),
      { id: 'data', data: Uint8Array.from([0, 128, 255]) },
    ]);
    expect([...readMonoSamples(eight, parsed(eight))]).toEqual([-1, 0, 127 / 128]);
    const sixteen = riffFile([
      fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: SR, bitsPerSample: 16 }),
      { id: 'data', data: Uint8Array.from([0x00, 0x80, 0xff, 0x7f, 0xff, 0xff]) },
    ]);
    expect([...readMonoSamples(sixteen, parsed(sixteen))]).toEqual([
      -1,
      Math.fround(32767 / 32768),
      Math.fround(-1 / 32768),
    ]);
    const twentyFour = riffFile([
      fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: SR, bitsPerSample: 24 }),
      { id: 'data', data: Uint8Array.from([0, 0, 0x80, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff]) },
    ]);
    expect([...readMonoSamples(twentyFour, parsed(twentyFour))]).toEqual([
      -1,
      Math.fround(8388607 / 8388608),
      Math.fround(-1 / 8388608),
    ]);
  });

  it('clips float samples outside [-1, 1] and turns NaN into 0', () => {
    const wav = encodeWav([Float32Array.from([1.5, -3, Number.NaN, 0.25, Number.POSITIVE_INFINITY])], {
      sampleRateHz: SR,
      format: 'float32',
    });
    expect([...readMonoSamples(wav, parsed(wav))]).toEqual([1, -1, 0, 0.25, 1]);
  });
});

describe('channels', () => {
  it('mixes stereo down to mono by averaging', () => {
    const l = testSignal(2_000, 2);
    const r = testSignal(2_000, 3);
    for (const format of ['pcm16', 'pcm24', 'float32', 'pcm8', 'extensible-pcm24in32'] as const) {
      const wav = encodeWav([l, r], { sampleRateHz: 44_100, format });
      const info = parsed(wav);
      expect(info.channels).toBe(2);
      expect(info.blockAlign).toBe(2 * (EXPECT[format].bits / 8));
      expect(info.bitRateBps).toBe(44_100 * EXPECT[format].bits * 2);
      const want = l.map((v, i) => (v + r[i]!) / 2);
      expect(maxDiff(readMonoSamples(wav, info), want)).toBeLessThanOrEqual(EXPECT[format].tolerance);
    }
  });

  it('opposite channels cancel; three channels average', () => {
    const s = testSignal(1_000);
    const neg = s.map((v) => -v);
    const silent = readMonoSamples(
      encodeWav([s, neg], { sampleRateHz: SR, format: 'float32' }),
      parsed(encodeWav([s, neg], { sampleRateHz: SR, format: 'float32' })),
    );
    expect(Math.max(...silent.map(Math.abs))).toBe(0);
    const three = encodeWav(
      [new Float32Array(10).fill(0.5), new Float32Array(10).fill(0.25), new Float32Array(10).fill(-0.15)],
      { sampleRateHz: SR, format: 'float64' },
    );
    const info = parsed(three);
    expect(info.channels).toBe(3);
    for (const v of readMonoSamples(three, info)) expect(v).toBeCloseTo(0.2, 6);
  });
});

describe('readMonoSamples ranges', () => {
  const s = testSignal(5_000);
  const wav = encodeWav([s, s], { sampleRateHz: SR, format: 'pcm16' });
  const info = parsed(wav);
  const all = readMonoSamples(wav, info);

  it('reads any window of frames, identical to the whole decode', () => {
    for (const [from, count] of [
      [0, 1],
      [1, 999],
      [1234, 2000],
      [4_999, 1],
      [0, 5_000],
    ] as const) {
      expect(readMonoSamples(wav, info, from, count)).toEqual(all.subarray(from, from + count));
    }
    expect(readMonoSamples(wav, info, 4_000)).toEqual(all.subarray(4_000));
  });

  it('clamps windows that reach past the data, and never reads past the bytes given', () => {
    expect(readMonoSamples(wav, info, 4_990, 100).length).toBe(10);
    expect(readMonoSamples(wav, info, 6_000, 100).length).toBe(0);
    expect(readMonoSamples(wav, info, -5, 3)).toEqual(all.subarray(0, 3));
    expect(readMonoSamples(wav, info, 0, 0).length).toBe(0);
    expect(readMonoSamples(wav.subarray(0, info.dataOffset + 4 * 100 + 3), info).length).toBe(100);
  });

  it('works on a view into a larger buffer (Buffer slices, subarrays)', () => {
    const big = new Uint8Array(wav.length + 7);
    big.set(wav, 7);
    const view = big.subarray(7);
    expect(readMonoSamples(view, parsed(view))).toEqual(all);
    expect(readMonoSamples(Buffer.from(wav), parsed(Buffer.from(wav)))).toEqual(all);
  });
});

describe('chunk walking', () => {
  const s = testSignal(3_000);
  const pcm = encodeSamples([s], 'pcm16');
  const fmt16 = fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: SR, bitsPerSample: 16 });
  const data: RiffChunk = { id: 'data', data: pcm };
  const junk = (id: string, n: number): RiffChunk => ({ id, data: new Uint8Array(n).fill(0x41) });

  it('skips LIST, bext, JUNK and odd-sized chunks (with their pad byte)', () => {
    const wav = encodeWav([s], {
      sampleRateHz: SR,
      format: 'pcm16',
      extraChunks: [
        listInfoChunk('odd title'),
        junk('bext', 602),
        junk('JUNK', 27),
        junk('note', 5),
        junk('cue ', 1),
      ],
    });
    const info = parsed(wav);
    expect(info.frames).toBe(3_000);
    expect(ascii(wav, info.dataOffset - 8)).toBe('data');
    expect(maxDiff(readMonoSamples(wav, info), s)).toBeLessThanOrEqual(0.5 / 32768 + 1e-7);
  });

  it('skips the fact chunk of float files and chunks before fmt', () => {
    const wav = riffFile([
      junk('JUNK', 28),
      junk('bext', 9),
      fmtChunk({ formatTag: 3, channels: 1, sampleRateHz: SR, bitsPerSample: 32 }),
      { id: 'fact', data: new Uint8Array(4) },
      { id: 'data', data: encodeSamples([s], 'float32') },
    ]);
    expect(maxDiff(readMonoSamples(wav, parsed(wav)), s)).toBe(0);
  });

  it('follows chunk ids when a writer left out the pad byte of an odd-sized chunk', () => {
    const wav = riffFile([fmt16, junk('note', 5), junk('JUNK', 3), data], { pad: false });
    const info = parsed(wav);
    expect(info.frames).toBe(3_000);
    expect(info.dataOffset + info.dataBytes).toBe(wav.length);
    // A padded file whose pad byte is not 0 is still read as padded.
    const padded = riffFile([fmt16, junk('note', 5), data]);
    padded[12 + 8 + 16 + 8 + 5] = 0x41;
    expect(parsed(padded).frames).toBe(3_000);
  });

  it('finds fmt after data, and ignores chunks after data', () => {
    const after = riffFile([data, listInfoChunk(), fmt16]);
    expect(parsed(after).frames).toBe(3_000);
    const trailing = riffFile([fmt16, data, listInfoChunk('trailing')]);
    const info = parsed(trailing);
    expect(info.dataBytes).toBe(pcm.length);
    expect(info.truncated).toBe(false);
  });

  it('a data chunk longer than the file is a truncated file: what is there is read', () => {
    const whole = riffFile([fmt16, listInfoChunk(), data]);
    const cut = whole.subarray(0, whole.length - 2_001); // also cuts a frame in half
    const info = parsed(cut);
    expect(info.truncated).toBe(true);
    expect(info.dataBytes).toBe(pcm.length - 2_001);
    expect(info.frames).toBe(Math.floor((pcm.length - 2_001) / 2));
    expect(info.durationSeconds).toBeCloseTo(info.frames / SR, 12);
    expect(maxDiff(readMonoSamples(cut, info), s.subarray(0, info.frames))).toBeLessThanOrEqual(
      0.5 / 32768 + 1e-7,
    );
  });

  it('a data size of 0xFFFFFFFF (streaming recorder) runs to the end of the file', () => {
    const wav = encodeWav([s], { sampleRateHz: SR, format: 'pcm16', streamingSize: true });
    const info = parsed(wav);
    expect(info).toMatchObject({ frames: 3_000, truncated: false, dataBytes: pcm.length });
    const zero = riffFile([fmt16, data], { sizeOverride: { data: 0 }, riffSize: 0 });
    expect(parsed(zero)).toMatchObject({ frames: 3_000, truncated: false });
  });

  it('reads RF64 sizes from the ds64 chunk', () => {
    const ds64 = new Uint8Array(28);
    const dv = new DataView(ds64.buffer);
    dv.setUint32(8, pcm.length, true); // data size, low 32 bits
    dv.setUint32(16, 3_000, true); // sample count
    const wav = riffFile([{ id: 'ds64', data: ds64 }, fmt16, data, listInfoChunk('after data')], {
      magic: 'RF64',
      riffSize: 0xffffffff,
      sizeOverride: { data: 0xffffffff },
    });
    const info = parsed(wav);
    expect(info).toMatchObject({ frames: 3_000, dataBytes: pcm.length, truncated: false });
  });
});

describe('refusals, with a reason a researcher can read', () => {
  const data: RiffChunk = { id: 'data', data: new Uint8Array(400) };

  it('compressed codecs are refused by name', () => {
    const adpcm = riffFile([
      fmtChunk({ formatTag: 0x0011, channels: 1, sampleRateHz: 8000, bitsPerSample: 4, blockAlign: 256 }),
      data,
    ]);
    expect(problemOf(adpcm)).toEqual({
      code: 'unsupported_codec',
      detail:
        'This WAV file is compressed with codec 0x0011 (IMA ADPCM); only uncompressed PCM or float WAV can be read.',
    });
    const mulaw = problemOf(
      riffFile([fmtChunk({ formatTag: 0x0007, channels: 1, sampleRateHz: 8000, bitsPerSample: 8 }), data]),
    );
    expect(mulaw.code).toBe('unsupported_codec');
    expect(mulaw.detail).toContain('0x0007 (µ-law)');
    const mp3 = problemOf(
      riffFile([
        fmtChunk({ formatTag: 0x0055, channels: 2, sampleRateHz: 44_100, bitsPerSample: 0, blockAlign: 1 }),
        data,
      ]),
    );
    expect(mp3.detail).toContain('0x0055 (MP3)');
    const unknown = problemOf(
      riffFile([fmtChunk({ formatTag: 0x1234, channels: 1, sampleRateHz: 8000, bitsPerSample: 16 }), data]),
    );
    expect(unknown.detail).toBe(
      'This WAV file uses codec 0x1234, which is not uncompressed audio; only uncompressed PCM or float WAV can be read.',
    );
  });

  it('extensible files with a compressed or vendor sub-format are refused', () => {
    const sub = problemOf(
      riffFile([
        fmtChunk({
          formatTag: 0xfffe,
          channels: 1,
          sampleRateHz: 8000,
          bitsPerSample: 16,
          subFormat: 0x0002,
        }),
        data,
      ]),
    );
    expect(sub).toMatchObject({ code: 'unsupported_codec' });
    expect(sub.detail).toContain('Microsoft ADPCM');
    const vendor = problemOf(
      riffFile([
        fmtChunk({ formatTag: 0xfffe, channels: 1, sampleRateHz: 8000, bitsPerSample: 16, vendorGuid: true }),
        data,
      ]),
    );
    expect(vendor.code).toBe('unsupported_codec');
    expect(vendor.detail).toMatch(/GUID/);
  });

  it('unsupported sample sizes are refused', () => {
    expect(
      problemOf(
        riffFile([fmtChunk({ formatTag: 3, channels: 1, sampleRateHz: 8000, bitsPerSample: 16 }), data]),
      ).detail,
    ).toBe('This WAV file has 16-bit floating-point samples; only 32- and 64-bit float can be read.');
    expect(
      problemOf(
        riffFile([fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: 8000, bitsPerSample: 48 }), data]),
      ).code,
    ).toBe('unsupported_codec');
    expect(problemOf(riffFile([{ id: 'data', data: new Uint8Array(8) }], { magic: 'RIFX' })).detail).toMatch(
      /big-endian/,
    );
  });

  it('files that are not RIFF WAVE are refused', () => {
    expect(problemOf(makeMp3Header())).toEqual({
      code: 'not_riff',
      detail: 'This is an MP3 file, not a WAV file.',
    });
    expect(problemOf(makeMp4Header()).detail).toBe('This is an MP4 (M4A) file, not a WAV file.');
    expect(problemOf(riffFile([], { form: 'AVI ' }))).toEqual({
      code: 'not_riff',
      detail: "This is a RIFF file of type 'AVI ', not WAVE audio.",
    });
    expect(problemOf(new Uint8Array(5)).code).toBe('not_riff');
    expect(problemOf(new TextEncoder().encode('<html><body>Not found</body></html>'))).toEqual({
      code: 'not_riff',
      detail: "This file does not start with 'RIFF', so it is not a WAV file.",
    });
    expect(problemOf(riffFile([], { form: 'AV\x01I' })).detail).toBe(
      'This is a RIFF file of type unreadable bytes, not WAVE audio.',
    );
  });

  it('missing chunks and damaged headers are refused', () => {
    const fmt = fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: 8000, bitsPerSample: 16 });
    expect(problemOf(riffFile([data])).code).toBe('no_fmt');
    expect(problemOf(riffFile([listInfoChunk()])).code).toBe('no_fmt');
    expect(problemOf(riffFile([fmt, listInfoChunk()])).code).toBe('no_data');
    expect(
      problemOf(
        riffFile([fmtChunk({ formatTag: 1, channels: 0, sampleRateHz: 8000, bitsPerSample: 16 }), data]),
      ).code,
    ).toBe('bad_header');
    expect(
      problemOf(riffFile([fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: 0, bitsPerSample: 16 }), data]))
        .code,
    ).toBe('bad_header');
    expect(
      problemOf(
        riffFile([
          fmtChunk({ formatTag: 1, channels: 2, sampleRateHz: 8000, bitsPerSample: 16, blockAlign: 2 }),
          data,
        ]),
      ),
    ).toEqual({
      code: 'bad_header',
      detail:
        "This WAV file's header is inconsistent: 2 channel(s) of 16-bit samples take 4 bytes per frame, but the header says 2.",
    });
    expect(problemOf(riffFile([{ id: 'fmt ', data: new Uint8Array(12) }, data])).code).toBe('bad_header');
    const cutInFmt = riffFile([fmt, data]).subarray(0, 30);
    expect(problemOf(cutInFmt).code).toBe('bad_header');
  });

  it('a block align of 0 is read as the only value it can mean', () => {
    const wav = riffFile([
      fmtChunk({ formatTag: 1, channels: 2, sampleRateHz: 8000, bitsPerSample: 16, blockAlign: 0 }),
      data,
    ]);
    expect(parsed(wav)).toMatchObject({ blockAlign: 4, frames: 100 });
  });
});
