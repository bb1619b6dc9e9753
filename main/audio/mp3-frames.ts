/**
 * An MP3 file's real length, from its frames counted to the end rather than from what its first
 * header (or a Xing/VBRI table) claims: a file cut short while copying keeps a header that promises
 * the whole recording. Walks MPEG-1/2/2.5 layer I–III frame headers from the first frame after any
 * ID3v2 tag to the end (an ID3v1 or APE tag at the end stops the walk); a frame that runs past the end
 * of the file means the file was cut (`truncated`). A Xing/Info or VBRI frame holds no audio and is
 * not counted, but its frame count is returned as `claimedFrames`.
 */
import { isMpegAudioFrameHeader } from './sniff';

export interface Mp3Frames {
  readonly frames: number;
  readonly samplesPerChannel: number;
  readonly sampleRateHz: number;
  readonly channels: number;
  readonly durationSeconds: number;
  /** Mean bit rate of the frames present. */
  readonly bitRateBps: number;
  /** The last frame runs past the end of the file, or the Xing/VBRI table promises more frames. */
  readonly truncated: boolean;
  /** Frames a Xing/Info or VBRI header announces (null when there is none). */
  readonly claimedFrames: number | null;
}

const BITRATES: Record<string, readonly number[]> = {
  // [version 1 | 2][layer 1..3]; kbit/s by index 0..14
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES: Record<number, readonly number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

interface Frame {
  readonly length: number;
  readonly samples: number;
  readonly rate: number;
  readonly channels: number;
  readonly bitrate: number;
  readonly sideInfo: number;
}

const frameAt = (b: Uint8Array, at: number): Frame | null => {
  if (!isMpegAudioFrameHeader(b, at)) return null;
  const b1 = b[at + 1]!;
  const b2 = b[at + 2]!;
  const b3 = b[at + 3]!;
  const versionBits = (b1 >> 3) & 3;
  const layer = 4 - ((b1 >> 1) & 3); // 1..3
  const v1 = versionBits === 3;
  const kbps = BITRATES[`${v1 ? 1 : 2}-${layer}`]![(b2 >> 4) & 15]!;
  if (kbps === 0) return null; // free format: cannot be walked
  const rate = RATES[versionBits]![(b2 >> 2) & 3]!;
  const padding = (b2 >> 1) & 1;
  const mono = ((b3 >> 6) & 3) === 3;
  const samples = layer === 1 ? 384 : layer === 2 || v1 ? 1152 : 576;
  const length =
    layer === 1
      ? (Math.floor((12 * kbps * 1000) / rate) + padding) * 4
      : Math.floor(((samples / 8) * kbps * 1000) / rate) + padding;
  const sideInfo = layer !== 3 ? 0 : v1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  return { length, samples, rate, channels: mono ? 1 : 2, bitrate: kbps * 1000, sideInfo };
};

const ascii = (b: Uint8Array, at: number, s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
};

const u32 = (b: Uint8Array, at: number): number =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/** The frame count a Xing/Info or VBRI header in this frame announces, or null. */
const announcedFrames = (b: Uint8Array, at: number, f: Frame): number | null => {
  const x = at + 4 + f.sideInfo;
  if (x + 12 <= b.length && (ascii(b, x, 'Xing') || ascii(b, x, 'Info'))) {
    return (u32(b, x + 4) & 1) === 1 ? u32(b, x + 8) : -1;
  }
  const v = at + 36;
  if (v + 18 <= b.length && ascii(b, v, 'VBRI')) return u32(b, v + 14);
  return null;
};

/** Where the audio starts: after an ID3v2 tag (and its footer), if any. */
const audioStart = (b: Uint8Array): number => {
  if (b.length >= 10 && ascii(b, 0, 'ID3')) {
    const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
    return 10 + size + (b[5]! & 0x10 ? 10 : 0);
  }
  return 0;
};

/** Looks at most this far for the first frame (junk or padding after a tag). */
const SYNC_SEARCH_BYTES = 64 * 1024;

/** Counts the frames of an MP3 file held in memory; null when no run of frames is found. */
export const countMp3Frames = (b: Uint8Array): Mp3Frames | null => {
  let at = audioStart(b);
  // First frame: a header whose next frame is a header too (or the end of the file).
  let first: Frame | null = null;
  for (const limit = Math.min(b.length, at + SYNC_SEARCH_BYTES); at < limit; at++) {
    const f = frameAt(b, at);
    if (f && (at + f.length >= b.length || frameAt(b, at + f.length) !== null)) {
      first = f;
      break;
    }
  }
  if (!first) return null;
  let end = b.length;
  if (end >= 128 && ascii(b, end - 128, 'TAG')) end -= 128;
  if (end >= 32 && ascii(b, end - 32, 'APETAGEX')) end -= 32; // footer only; its body is skipped as junk below

  let frames = 0;
  let samples = 0;
  let bits = 0;
  let truncated = false;
  let claimedFrames: number | null = null;
  const announced = announcedFrames(b, at, first);
  if (announced !== null) {
    claimedFrames = announced >= 0 ? announced : null;
    at += first.length;
  }
  while (at + 4 <= end) {
    const f = frameAt(b, at);
    if (!f) break; // a tag or junk after the audio
    if (at + f.length > end) {
      truncated = true;
      break;
    }
    frames++;
    samples += f.samples;
    bits += f.length * 8;
    at += f.length;
  }
  if (frames === 0) return null;
  if (claimedFrames !== null && frames < claimedFrames) truncated = true;
  const durationSeconds = samples / first.rate;
  return {
    frames,
    samplesPerChannel: samples,
    sampleRateHz: first.rate,
    channels: first.channels,
    durationSeconds,
    bitRateBps: durationSeconds > 0 ? bits / durationSeconds : first.bitrate,
    truncated,
    claimedFrames,
  };
};
