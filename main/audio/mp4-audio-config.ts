/**
 * The audio facts of an MP4/M4A file from the stream's own decoder configuration, not from the sample
 * entry's header fields. An `mp4a` sample entry carries a channel count and a sample rate, but many
 * writers put 2 channels there whatever the audio holds (ISO/IEC 14496-12 fixes the field at 2 for
 * the generic audio entry); the AAC decoder uses the AudioSpecificConfig inside `esds` instead
 * (ISO/IEC 14496-3 §1.6.2.1): 5 bits object type (31: 6 more bits), 4 bits sampling-frequency index
 * (15: a 24-bit rate follows), 4 bits channel configuration (1: mono, 2: stereo, 3–6: 3–6 channels,
 * 7: 8 channels; 0: given by a program config element, which we leave to the header).
 *
 * Walks moov/trak/mdia/minf/stbl/stsd of the first audio track; everything is a value or null.
 */

export interface Mp4AudioConfig {
  /** Channels the decoder will output, from the AudioSpecificConfig (null when it defers to a PCE). */
  readonly channels: number | null;
  /** Sampling rate of the AAC core from the AudioSpecificConfig. */
  readonly sampleRateHz: number | null;
  /** MPEG-4 audio object type (2: AAC LC, 5: SBR, 29: PS, ...). */
  readonly objectType: number;
  /** The channel count written in the sample entry (what header-only readers report). */
  readonly headerChannels: number;
}

const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const CHANNELS_BY_CONFIG = [0, 1, 2, 3, 4, 5, 6, 8];
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

const fourcc = (b: Uint8Array, at: number): string =>
  String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

interface Box {
  readonly type: string;
  readonly body: number;
  readonly end: number;
}

function* boxes(b: Uint8Array, dv: DataView, from: number, to: number): Generator<Box> {
  let off = from;
  while (off + 8 <= to) {
    let size = dv.getUint32(off);
    const type = fourcc(b, off + 4);
    let body = off + 8;
    if (size === 1) {
      if (off + 16 > to) return;
      size = dv.getUint32(off + 8) * 2 ** 32 + dv.getUint32(off + 12);
      body = off + 16;
    } else if (size === 0) size = to - off;
    if (size < body - off) return;
    const end = Math.min(to, off + size);
    yield { type, body, end };
    off = off + size;
  }
}

/** Reads an MPEG-4 descriptor length (1–4 bytes of 7 bits). */
const descriptorLength = (
  b: Uint8Array,
  at: number,
  end: number,
): { length: number; next: number } | null => {
  let length = 0;
  for (let i = 0; i < 4 && at < end; i++) {
    const c = b[at++]!;
    length = (length << 7) | (c & 0x7f);
    if ((c & 0x80) === 0) return { length, next: at };
  }
  return null;
};

/** The AudioSpecificConfig bytes inside an `esds` body (after its version and flags). */
const findAsc = (b: Uint8Array, from: number, to: number): { at: number; end: number } | null => {
  let at = from;
  // ES_Descriptor (0x03): ES_ID(2), flags(1), optional fields; then DecoderConfigDescriptor (0x04).
  if (b[at] !== 0x03) return null;
  const es = descriptorLength(b, at + 1, to);
  if (!es) return null;
  at = es.next;
  const flags = b[at + 2]!;
  at += 3;
  if (flags & 0x80) at += 2; // dependsOn_ES_ID
  if (flags & 0x40) at += 1 + (b[at] ?? 0); // URL
  if (flags & 0x20) at += 2; // OCR_ES_ID
  if (b[at] !== 0x04) return null;
  const dc = descriptorLength(b, at + 1, to);
  if (!dc) return null;
  at = dc.next + 13; // objectTypeIndication, streamType, bufferSize, max/avg bitrate
  if (b[at] !== 0x05) return null;
  const ds = descriptorLength(b, at + 1, to);
  if (!ds) return null;
  return { at: ds.next, end: Math.min(to, ds.next + ds.length) };
};

class Bits {
  private pos = 0;
  constructor(
    private readonly b: Uint8Array,
    private readonly start: number,
    private readonly end: number,
  ) {}
  read(n: number): number | null {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.start + (this.pos >> 3);
      if (byte >= this.end) return null;
      v = v * 2 + ((this.b[byte]! >> (7 - (this.pos & 7))) & 1);
      this.pos++;
    }
    return v;
  }
}

/** The decoder configuration of the first `mp4a` track, or null when there is none (or it is damaged). */
export const readMp4AudioConfig = (b: Uint8Array): Mp4AudioConfig | null => {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const walk = (from: number, to: number): Mp4AudioConfig | null => {
    for (const box of boxes(b, dv, from, to)) {
      if (CONTAINERS.has(box.type)) {
        const found = walk(box.body, box.end);
        if (found) return found;
      } else if (box.type === 'stsd') {
        // FullBox: version/flags (4), entry count (4), then sample entries.
        for (const entry of boxes(b, dv, box.body + 8, box.end)) {
          if (entry.type !== 'mp4a') continue;
          // SampleEntry: 6 reserved + 2 data ref; AudioSampleEntry: 8 reserved, channelcount(2), samplesize(2), 4 reserved, samplerate(4).
          if (entry.body + 28 > entry.end) return null;
          const headerChannels = dv.getUint16(entry.body + 16);
          const version = dv.getUint16(entry.body + 8);
          const childrenAt = entry.body + 28 + (version === 1 ? 16 : version === 2 ? 36 : 0);
          for (const child of boxes(b, dv, childrenAt, entry.end)) {
            if (child.type !== 'esds') continue;
            const asc = findAsc(b, child.body + 4, child.end);
            if (!asc) return null;
            const bits = new Bits(b, asc.at, asc.end);
            let objectType = bits.read(5);
            if (objectType === 31) objectType = 32 + (bits.read(6) ?? 0);
            const rateIndex = bits.read(4);
            const rate =
              rateIndex === 15 ? bits.read(24) : rateIndex === null ? null : (RATES[rateIndex] ?? null);
            const config = bits.read(4);
            if (objectType === null || config === null) return null;
            const channels = CHANNELS_BY_CONFIG[config] ?? null;
            return {
              channels: channels === 0 ? null : channels,
              sampleRateHz: rate,
              objectType,
              headerChannels,
            };
          }
          return null;
        }
      }
    }
    return null;
  };
  try {
    return walk(0, b.length);
  } catch {
    return null;
  }
};
