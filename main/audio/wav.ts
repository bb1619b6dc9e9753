/**
 * Reading uncompressed WAV files: the header (`parseWavHeader`) and the samples, mixed down to mono
 * floats (`readMonoSamples`).
 *
 * The header walk follows RIFF: chunks are word-aligned (an odd-sized chunk is followed by one pad
 * byte; files whose writer forgot the pad byte are recognised too), unknown chunks (LIST, fact,
 * bext, JUNK, cue, ...) are skipped, `fmt ` may come before or after `data`. RF64/BW64 files take
 * their sizes from the `ds64` chunk. A `data` chunk that claims more bytes than the file holds is a
 * truncated file: what is there is used and `truncated` is set. A `data` size of 0xFFFFFFFF (written
 * by streaming recorders that could not seek back) means "to the end of the file".
 *
 * Encodings read by `readMonoSamples` and `readChannelSamples`: integer PCM of 1–32 bits (8-bit and
 * narrower unsigned, wider signed; samples are left-justified in 1–4 byte containers, so 12-, 20- or
 * 24-bit-in-32 read correctly), IEEE float of 32 and 64 bits, and WAVE_FORMAT_EXTENSIBLE (0xFFFE) whose
 * SubFormat GUID is PCM or IEEE float. With `{ companded: true }` the header parser also accepts the
 * encodings the streaming decoder (main/audio/decode/wav-decoder.ts) decodes: A-law and µ-law (G.711),
 * IMA ADPCM and Microsoft ADPCM. Anything else (MP3-in-WAV, GSM, ...) is refused with a reason a
 * researcher can act on. Problems are values (`Result`), never exceptions.
 */
import { err, ok, type Result } from '../../shared/result';
import { sniffContainer } from './sniff';

export type WavCodec = 'pcm' | 'float' | 'alaw' | 'mulaw' | 'ima-adpcm' | 'ms-adpcm';

/** What an ADPCM `fmt ` chunk adds: the samples each block holds, and Microsoft ADPCM's predictor pairs. */
export interface AdpcmLayout {
  readonly samplesPerBlock: number;
  /** Microsoft ADPCM: the predictor coefficient pairs (scaled by 256) a block header picks from. */
  readonly coefficients: readonly (readonly [number, number])[];
}

/** Which encodings a header may declare: the plain ones, or also those only the decoder reads. */
export interface WavParseOptions {
  readonly companded?: boolean;
}

/** The sample format a WAV file's `fmt ` chunk declares. */
export interface WavFormat {
  readonly codec: WavCodec;
  /** The format tag of the `fmt ` chunk as written (0xFFFE for extensible files). */
  readonly formatTag: number;
  /** WAVE_FORMAT_EXTENSIBLE: the codec comes from the SubFormat GUID. */
  readonly extensible: boolean;
  readonly channels: number;
  readonly sampleRateHz: number;
  /** Bits of the sample container as written in the header (`wBitsPerSample`). */
  readonly bitsPerSample: number;
  /** Bits that carry signal: `wValidBitsPerSample` of extensible files, else `bitsPerSample`. */
  readonly validBitsPerSample: number;
  /** Bytes per frame (one sample of every channel); for ADPCM, bytes per block. */
  readonly blockAlign: number;
  /** ADPCM only: the block layout. */
  readonly adpcm?: AdpcmLayout;
}

/** What the header of a readable WAV file says, with the sizes checked against the file itself. */
export interface WavInfo extends WavFormat {
  /** Offset of the first sample byte in the file. */
  readonly dataOffset: number;
  /** Sample bytes present in the file (less than declared when `truncated`). */
  readonly dataBytes: number;
  /** Whole frames present. */
  readonly frames: number;
  readonly durationSeconds: number;
  /** sampleRate × bitsPerSample × channels. */
  readonly bitRateBps: number;
  /** The `data` chunk declares more bytes than the file holds. */
  readonly truncated: boolean;
}

export type WavProblemCode = 'not_riff' | 'no_fmt' | 'no_data' | 'unsupported_codec' | 'bad_header';

export interface WavProblem {
  readonly code: WavProblemCode;
  /** One or two sentences for a researcher: what is wrong and, where it helps, what can be read. */
  readonly detail: string;
}

const FORMAT_PCM = 0x0001;
const FORMAT_MS_ADPCM = 0x0002;
const FORMAT_FLOAT = 0x0003;
const FORMAT_ALAW = 0x0006;
const FORMAT_MULAW = 0x0007;
const FORMAT_IMA_ADPCM = 0x0011;
const FORMAT_EXTENSIBLE = 0xfffe;
const SIZE_UNKNOWN = 0xffffffff;

/** Names of format tags a researcher may meet, for the refusal message. */
const CODEC_NAMES: Readonly<Record<number, string>> = {
  0x0000: 'unknown format',
  0x0002: 'Microsoft ADPCM',
  0x0006: 'A-law',
  0x0007: 'µ-law',
  0x0011: 'IMA ADPCM',
  0x0022: 'TrueSpeech',
  0x0031: 'GSM 6.10',
  0x0040: 'G.721 ADPCM',
  0x0045: 'G.726 ADPCM',
  0x0050: 'MPEG audio',
  0x0055: 'MP3',
  0x0064: 'G.726 ADPCM',
  0x0092: 'Dolby AC-3 (S/PDIF)',
  0x00ff: 'AAC',
  0x0160: 'Windows Media Audio',
  0x0161: 'Windows Media Audio',
  0x0162: 'Windows Media Audio Pro',
  0x0163: 'Windows Media Audio Lossless',
  0x1610: 'HE-AAC',
  0x2000: 'Dolby AC-3',
  0x2001: 'DTS',
  0x674f: 'Ogg Vorbis',
  0x6750: 'Ogg Vorbis',
  0x6751: 'Ogg Vorbis',
  0xf1ac: 'FLAC',
};

/** Bytes 2–15 of every KSDATAFORMAT_SUBTYPE_* GUID built from a format tag (…-0000-0010-8000-00AA00389B71). */
const GUID_TAIL = [
  0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
] as const;

const hex4 = (n: number): string => `0x${n.toString(16).toUpperCase().padStart(4, '0')}`;

const problem = (code: WavProblemCode, detail: string): Result<never, WavProblem> => err({ code, detail });

const refuseCodec = (tag: number): Result<never, WavProblem> => {
  const name = CODEC_NAMES[tag];
  return problem(
    'unsupported_codec',
    name === undefined
      ? `This WAV file uses codec ${hex4(tag)}, which is not uncompressed audio; only uncompressed PCM or float WAV can be read.`
      : `This WAV file is compressed with codec ${hex4(tag)} (${name}); only uncompressed PCM or float WAV can be read.`,
  );
};

const fourcc = (b: Uint8Array, at: number): string =>
  String.fromCharCode(b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0);

/** A chunk id of printable ASCII, as every real chunk id is. */
const plausibleId = (b: Uint8Array, at: number): boolean => {
  if (at + 4 > b.length) return false;
  for (let i = 0; i < 4; i++) {
    const c = b[at + i]!;
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
};

/** Chunk ids that occur in WAV files, to tell where the next chunk starts when a pad byte may be missing. */
const KNOWN_IDS = new Set([
  'fmt ',
  'data',
  'fact',
  'LIST',
  'JUNK',
  'junk',
  'PAD ',
  'FLLR',
  'bext',
  'iXML',
  'axml',
  'cart',
  'cue ',
  'smpl',
  'inst',
  'PEAK',
  'acid',
  'id3 ',
  'ID3 ',
  'plst',
  'ds64',
  'chna',
  'umid',
  'minf',
  'elm1',
  'regn',
  'DISP',
  'afsp',
]);

/**
 * Where the chunk after an odd-sized one starts. RIFF wants a pad byte (normally 0) after it, but
 * some writers leave it out: then the byte after the chunk is the first letter of the next id.
 */
const afterOddChunk = (b: Uint8Array, end: number): number => {
  const padded = plausibleId(b, end + 1);
  if (padded && b[end] === 0) return end + 1;
  const unpadded = plausibleId(b, end);
  if (unpadded && !padded) return end;
  if (unpadded && padded && KNOWN_IDS.has(fourcc(b, end)) && !KNOWN_IDS.has(fourcc(b, end + 1))) return end;
  return end + 1;
};

const printable = (id: string): string => (/^[\x20-\x7e]{4}$/.test(id) ? `'${id}'` : 'unreadable bytes');

const CONTAINER_NAMES = { mp3: 'an MP3', mp4: 'an MP4 (M4A)', ogg: 'an Ogg' } as const;

/** The format tags the product can read, with the codec each is; the companded ones only for the decoder. */
const PLAIN_TAGS: ReadonlyMap<number, WavCodec> = new Map([
  [FORMAT_PCM, 'pcm'],
  [FORMAT_FLOAT, 'float'],
]);
const DECODER_TAGS: ReadonlyMap<number, WavCodec> = new Map([
  ...PLAIN_TAGS,
  [FORMAT_ALAW, 'alaw'],
  [FORMAT_MULAW, 'mulaw'],
  [FORMAT_IMA_ADPCM, 'ima-adpcm'],
  [FORMAT_MS_ADPCM, 'ms-adpcm'],
]);

/** Microsoft ADPCM's seven standard predictor pairs, used when a header lists none. */
const MS_ADPCM_STANDARD_COEFFICIENTS: readonly (readonly [number, number])[] = [
  [256, 0],
  [512, -256],
  [0, 0],
  [192, 64],
  [240, 0],
  [460, -208],
  [392, -232],
];

/** Bytes of one channel's block header: IMA 4 (predictor, step index, reserved), Microsoft 7. */
export const ADPCM_HEADER_BYTES = { 'ima-adpcm': 4, 'ms-adpcm': 7 } as const;

const damaged = (what: string): Result<never, WavProblem> =>
  problem('bad_header', `This WAV file's header is inconsistent: ${what}, so the file is damaged.`);

/** The ADPCM block layout from the `fmt ` chunk's extension, or worked out from the block size. */
const adpcmLayout = (
  codec: 'ima-adpcm' | 'ms-adpcm',
  dv: DataView,
  body: number,
  size: number,
  channels: number,
  blockAlign: number,
): Result<AdpcmLayout, WavProblem> => {
  const header = ADPCM_HEADER_BYTES[codec] * channels;
  if (blockAlign <= header) return damaged(`an ADPCM block of ${blockAlign} bytes cannot hold its header`);
  const extra = size >= 18 ? dv.getUint16(body + 16, true) : 0;
  // IMA: 8 samples in each 4 bytes of a channel, after the header's one; Microsoft: 2 per byte, after 2.
  const fromSize =
    codec === 'ima-adpcm'
      ? 1 + Math.floor((blockAlign - header) / (4 * channels)) * 8
      : 2 + Math.floor(((blockAlign - header) * 2) / channels);
  const declared = extra >= 2 && size >= 20 ? dv.getUint16(body + 18, true) : 0;
  const samplesPerBlock = declared > 0 && declared <= fromSize ? declared : fromSize;
  if (codec === 'ima-adpcm') return ok({ samplesPerBlock, coefficients: [] });
  const count = extra >= 4 && size >= 22 ? dv.getUint16(body + 20, true) : 0;
  if (count === 0 || size < 22 + count * 4)
    return ok({ samplesPerBlock, coefficients: MS_ADPCM_STANDARD_COEFFICIENTS });
  const coefficients = Array.from(
    { length: count },
    (_, i) => [dv.getInt16(body + 22 + i * 4, true), dv.getInt16(body + 24 + i * 4, true)] as const,
  );
  return ok({ samplesPerBlock, coefficients });
};

/** The codec tag of an extensible file's SubFormat GUID, or a refusal when the GUID is not a standard one. */
const extensibleTag = (
  b: Uint8Array,
  dv: DataView,
  body: number,
  size: number,
): Result<{ tag: number; validBits: number }, WavProblem> => {
  if (size < 40)
    return problem(
      'bad_header',
      `This WAV file says its format is "extensible" but its format chunk is ${size} bytes long instead of 40, so the file is damaged.`,
    );
  if (!GUID_TAIL.every((v, i) => b[body + 26 + i] === v)) {
    return problem(
      'unsupported_codec',
      'This extensible WAV file names its codec with a vendor-specific GUID; only uncompressed PCM or float WAV can be read.',
    );
  }
  return ok({ tag: dv.getUint16(body + 24, true), validBits: dv.getUint16(body + 18, true) });
};

/** The sample width the codec allows, or a refusal in a researcher's words. */
const checkSampleWidth = (codec: WavCodec, bits: number): Result<true, WavProblem> => {
  if (bits === 0)
    return problem('bad_header', 'This WAV file says it has 0 bits per sample, so the file is damaged.');
  if (codec === 'pcm' && bits > 32)
    return problem(
      'unsupported_codec',
      `This WAV file has ${bits}-bit PCM samples; PCM of up to 32 bits can be read.`,
    );
  if (codec === 'float' && bits !== 32 && bits !== 64)
    return problem(
      'unsupported_codec',
      `This WAV file has ${bits}-bit floating-point samples; only 32- and 64-bit float can be read.`,
    );
  if ((codec === 'alaw' || codec === 'mulaw') && bits !== 8)
    return damaged(
      `G.711 ${codec === 'alaw' ? 'A-law' : 'µ-law'} samples are 8 bits, but the header says ${bits}`,
    );
  return ok(true);
};

const parseFmt = (
  b: Uint8Array,
  dv: DataView,
  body: number,
  size: number,
  options: WavParseOptions,
): Result<WavFormat, WavProblem> => {
  if (size < 16)
    return problem(
      'bad_header',
      `The format chunk of this WAV file is ${size} bytes long; at least 16 are needed, so the file is damaged.`,
    );
  const formatTag = dv.getUint16(body, true);
  const channels = dv.getUint16(body + 2, true);
  const sampleRateHz = dv.getUint32(body + 4, true);
  const blockAlignDeclared = dv.getUint16(body + 12, true);
  const bitsPerSample = dv.getUint16(body + 14, true);
  let codecTag = formatTag;
  let validBitsPerSample = bitsPerSample;
  const extensible = formatTag === FORMAT_EXTENSIBLE;
  if (extensible) {
    const sub = extensibleTag(b, dv, body, size);
    if (!sub.ok) return sub;
    codecTag = sub.value.tag;
    if (sub.value.validBits !== 0) validBitsPerSample = sub.value.validBits;
  }
  const codec = (options.companded === true ? DECODER_TAGS : PLAIN_TAGS).get(codecTag);
  if (codec === undefined) return refuseCodec(codecTag);
  if (channels === 0)
    return problem('bad_header', 'This WAV file says it has 0 channels, so the file is damaged.');
  if (sampleRateHz === 0)
    return problem('bad_header', 'This WAV file says its sample rate is 0 Hz, so the file is damaged.');
  const width = checkSampleWidth(codec, bitsPerSample);
  if (!width.ok) return width;
  if (validBitsPerSample > bitsPerSample) validBitsPerSample = bitsPerSample;
  const common = { codec, formatTag, extensible, channels, sampleRateHz, bitsPerSample, validBitsPerSample };
  if (codec === 'ima-adpcm' || codec === 'ms-adpcm') {
    const layout = adpcmLayout(codec, dv, body, size, channels, blockAlignDeclared);
    return layout.ok ? ok({ ...common, blockAlign: blockAlignDeclared, adpcm: layout.value }) : layout;
  }
  const expectedAlign = channels * Math.ceil(bitsPerSample / 8);
  // A block align of 0 is a writer's slip with one possible meaning; any other mismatch is damage.
  const blockAlign = blockAlignDeclared === 0 ? expectedAlign : blockAlignDeclared;
  if (blockAlign !== expectedAlign) {
    return problem(
      'bad_header',
      `This WAV file's header is inconsistent: ${channels} channel(s) of ${bitsPerSample}-bit samples take ${expectedAlign} bytes per frame, but the header says ${blockAlign}.`,
    );
  }
  return ok({ ...common, blockAlign });
};

interface DataChunk {
  readonly offset: number;
  readonly bytes: number;
  readonly truncated: boolean;
}

/**
 * Reads a WAV header and checks it against the file's length. Needs the whole file, or its first bytes
 * (everything up to the samples) with the file's real length as `fileLength`: a data chunk that claims
 * more than the file holds is `truncated`.
 */
export const parseWavHeader = (
  bytes: Uint8Array,
  fileLength = bytes.length,
  options: WavParseOptions = {},
): Result<WavInfo, WavProblem> => {
  const len = fileLength;
  const readable = Math.min(len, bytes.length);
  if (len < 12)
    return problem(
      'not_riff',
      `This file is only ${len} bytes long; a WAV file starts with a 12-byte RIFF header.`,
    );
  const magic = fourcc(bytes, 0);
  if (magic === 'RIFX')
    return problem(
      'unsupported_codec',
      'This is a big-endian (RIFX) WAV file; only ordinary little-endian WAV can be read.',
    );
  if (magic !== 'RIFF' && magic !== 'RF64' && magic !== 'BW64') {
    const other = sniffContainer(bytes);
    return problem(
      'not_riff',
      other !== null && other !== 'wav'
        ? `This is ${CONTAINER_NAMES[other]} file, not a WAV file.`
        : "This file does not start with 'RIFF', so it is not a WAV file.",
    );
  }
  const form = fourcc(bytes, 8);
  if (form !== 'WAVE')
    return problem('not_riff', `This is a RIFF file of type ${printable(form)}, not WAVE audio.`);

  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sixtyFour = magic !== 'RIFF';
  const riffSize = dv.getUint32(4, true);
  let ds64DataSize: number | null = null;
  let fmt: WavFormat | null = null;
  let data: DataChunk | null = null;

  let off = 12;
  while (off + 8 <= readable) {
    const id = fourcc(bytes, off);
    const size = dv.getUint32(off + 4, true);
    const body = off + 8;
    const available = len - body;
    let advance = size;
    if (id === 'ds64' && sixtyFour && size >= 24 && available >= 16) {
      ds64DataSize = dv.getUint32(body + 8, true) + dv.getUint32(body + 12, true) * 2 ** 32;
    } else if (id === 'fmt ' && fmt === null) {
      if (available < 16 || body + 16 > readable) {
        return problem('bad_header', 'This WAV file ends inside its format chunk, so the file is damaged.');
      }
      const parsed = parseFmt(bytes, dv, body, Math.min(size, available, readable - body), options);
      if (!parsed.ok) return parsed;
      fmt = parsed.value;
    } else if (id === 'data' && data === null) {
      let declared = size;
      if (sixtyFour && size === SIZE_UNKNOWN && ds64DataSize !== null) declared = ds64DataSize;
      const streaming =
        declared === SIZE_UNKNOWN ||
        (declared === 0 && available > 0 && (riffSize === 0 || riffSize === SIZE_UNKNOWN));
      if (streaming) {
        data = { offset: body, bytes: available, truncated: false };
        break; // the samples run to the end of the file: nothing after them can be found
      }
      if (declared > available) {
        data = { offset: body, bytes: available, truncated: true };
        break;
      }
      data = { offset: body, bytes: declared, truncated: false };
      advance = declared;
    }
    if (fmt !== null && data !== null) break;
    off = advance % 2 === 1 ? afterOddChunk(bytes, body + advance) : body + advance;
  }

  if (fmt === null) {
    return problem(
      'no_fmt',
      data === null
        ? 'This WAV file has neither a format chunk nor audio data, so there is nothing to read.'
        : 'This WAV file has no format chunk, so its sample rate, channels and encoding are unknown.',
    );
  }
  if (data === null)
    return problem(
      'no_data',
      'This WAV file has a format chunk but no audio data chunk; the file may have been cut short while it was written.',
    );

  const frames = framesIn(fmt, data.bytes);
  return ok({
    ...fmt,
    dataOffset: data.offset,
    dataBytes: data.bytes,
    frames,
    durationSeconds: frames / fmt.sampleRateHz,
    bitRateBps: fmt.sampleRateHz * fmt.bitsPerSample * fmt.channels,
    truncated: data.truncated,
  });
};

/** Whole frames in `bytes` of samples; an ADPCM block cut short still holds the samples before the cut. */
export const framesIn = (fmt: WavFormat, bytes: number): number => {
  const blocks = Math.floor(bytes / fmt.blockAlign);
  if (fmt.adpcm === undefined) return blocks;
  const whole = blocks * fmt.adpcm.samplesPerBlock;
  const rest = bytes - blocks * fmt.blockAlign;
  return whole + adpcmSamplesInPartialBlock(fmt, rest);
};

const adpcmSamplesInPartialBlock = (fmt: WavFormat, rest: number): number => {
  const ch = fmt.channels;
  if (fmt.codec !== 'ima-adpcm' && fmt.codec !== 'ms-adpcm') return 0;
  const body = rest - ADPCM_HEADER_BYTES[fmt.codec] * ch;
  if (body < 0) return 0;
  const n = fmt.codec === 'ima-adpcm' ? 1 + Math.floor(body / (4 * ch)) * 8 : 2 + Math.floor((body * 2) / ch);
  return Math.min(n, fmt.adpcm?.samplesPerBlock ?? n);
};

const clampUnit = (v: number): number => (v > 1 ? 1 : v < -1 ? -1 : v === v ? v : 0);

/** The frames to read: those present in the bytes (a truncated file has fewer), from `fromFrame`, at most `frameCount`. */
const frameWindow = (
  bytes: Uint8Array,
  info: WavInfo,
  fromFrame: number,
  frameCount: number | undefined,
): { start: number; count: number } => {
  const present = Math.max(
    0,
    Math.min(info.frames, Math.floor((bytes.length - info.dataOffset) / info.blockAlign)),
  );
  const start = Math.min(present, Math.max(0, Math.floor(fromFrame)));
  const wanted = frameCount === undefined ? present - start : Math.max(0, Math.floor(frameCount));
  return { start, count: Math.min(wanted, present - start) };
};

/**
 * Decodes frames `[fromFrame, fromFrame + frameCount)` (clamped to the frames present) to floats in
 * [-1, 1], averaging the channels. Integer PCM is scaled by 2^(bits − 1) of its container (8-bit is
 * unsigned, centred on 128); float samples outside [-1, 1] are clipped and NaN becomes 0.
 */
export const readMonoSamples = (
  bytes: Uint8Array,
  info: WavInfo,
  fromFrame = 0,
  frameCount?: number,
): Float32Array => {
  const { start, count } = frameWindow(bytes, info, fromFrame, frameCount);
  const out = new Float32Array(count);
  if (count === 0) return out;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ch = info.channels;
  const align = info.blockAlign;
  const width = align / ch;
  const base = info.dataOffset + start * align;
  const end = base + count * align;

  if (info.codec === 'float') {
    const mix = 1 / ch;
    if (width === 4) {
      if (ch === 1)
        for (let i = 0, p = base; p < end; i++, p += 4) out[i] = clampUnit(dv.getFloat32(p, true));
      else {
        for (let i = 0, p = base; p < end; i++) {
          let s = 0;
          for (let c = 0; c < ch; c++, p += 4) s += clampUnit(dv.getFloat32(p, true));
          out[i] = s * mix;
        }
      }
    } else {
      if (ch === 1)
        for (let i = 0, p = base; p < end; i++, p += 8) out[i] = clampUnit(dv.getFloat64(p, true));
      else {
        for (let i = 0, p = base; p < end; i++) {
          let s = 0;
          for (let c = 0; c < ch; c++, p += 8) s += clampUnit(dv.getFloat64(p, true));
          out[i] = s * mix;
        }
      }
    }
    return out;
  }

  switch (width) {
    case 1: {
      const scale = 1 / (128 * ch);
      if (ch === 1) for (let i = 0, p = base; p < end; i++, p++) out[i] = (bytes[p]! - 128) * scale;
      else {
        for (let i = 0, p = base; p < end; i++) {
          let s = 0;
          for (let c = 0; c < ch; c++, p++) s += bytes[p]! - 128;
          out[i] = s * scale;
        }
      }
      break;
    }
    case 2: {
      const scale = 1 / (32768 * ch);
      if (ch === 1) for (let i = 0, p = base; p < end; i++, p += 2) out[i] = dv.getInt16(p, true) * scale;
      else {
        for (let i = 0, p = base; p < end; i++) {
          let s = 0;
          for (let c = 0; c < ch; c++, p += 2) s += dv.getInt16(p, true);
          out[i] = s * scale;
        }
      }
      break;
    }
    case 3: {
      const scale = 1 / (8388608 * ch);
      for (let i = 0, p = base; p < end; i++) {
        let s = 0;
        for (let c = 0; c < ch; c++, p += 3)
          s += bytes[p]! | (bytes[p + 1]! << 8) | ((bytes[p + 2]! << 24) >> 8);
        out[i] = s * scale;
      }
      break;
    }
    default: {
      const scale = 1 / (2147483648 * ch);
      if (ch === 1) for (let i = 0, p = base; p < end; i++, p += 4) out[i] = dv.getInt32(p, true) * scale;
      else {
        for (let i = 0, p = base; p < end; i++) {
          let s = 0;
          for (let c = 0; c < ch; c++, p += 4) s += dv.getInt32(p, true);
          out[i] = s * scale;
        }
      }
    }
  }
  return out;
};

/**
 * Decodes one channel (0-based) of frames `[fromFrame, fromFrame + frameCount)` to floats in [-1, 1],
 * scaled like {@link readMonoSamples}. For a mono file it is the same as `readMonoSamples`.
 */
export const readChannelSamples = (
  bytes: Uint8Array,
  info: WavInfo,
  channel: number,
  fromFrame = 0,
  frameCount?: number,
): Float32Array => {
  if (info.channels === 1) return readMonoSamples(bytes, info, fromFrame, frameCount);
  if (!(channel >= 0 && channel < info.channels)) throw new RangeError(`no channel ${channel}`);
  const { start, count } = frameWindow(bytes, info, fromFrame, frameCount);
  const out = new Float32Array(count);
  if (count === 0) return out;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const align = info.blockAlign;
  const width = align / info.channels;
  let p = info.dataOffset + start * align + channel * width;
  if (info.codec === 'float') {
    if (width === 4) for (let i = 0; i < count; i++, p += align) out[i] = clampUnit(dv.getFloat32(p, true));
    else for (let i = 0; i < count; i++, p += align) out[i] = clampUnit(dv.getFloat64(p, true));
    return out;
  }
  switch (width) {
    case 1:
      for (let i = 0; i < count; i++, p += align) out[i] = (bytes[p]! - 128) / 128;
      break;
    case 2:
      for (let i = 0; i < count; i++, p += align) out[i] = dv.getInt16(p, true) / 32768;
      break;
    case 3:
      for (let i = 0; i < count; i++, p += align)
        out[i] = (bytes[p]! | (bytes[p + 1]! << 8) | ((bytes[p + 2]! << 24) >> 8)) / 8388608;
      break;
    default:
      for (let i = 0; i < count; i++, p += align) out[i] = dv.getInt32(p, true) / 2147483648;
  }
  return out;
};
