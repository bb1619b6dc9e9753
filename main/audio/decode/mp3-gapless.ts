/**
 * Gapless MP3: the encoder's delay and padding from the LAME tag (the "Info"/"Xing" frame that LAME
 * and ffmpeg write ahead of the audio; layout per the LAME "Mp3 Info Tag rev 1" specification). A
 * decoder gives out `delay + 529` samples before the recording's first (the encoder's delay plus the
 * decoder's own 529-sample filterbank delay) and the frames' padding after its last; dropping them
 * makes the decoded length the recording's, to the sample.
 */
import { open } from 'node:fs/promises';
import { isMpegAudioFrameHeader } from '../sniff';

/** The MP3 synthesis filterbank's delay, in samples, added by every decoder (LAME tag specification). */
export const MP3_DECODER_DELAY = 529;

export interface Mp3Gapless {
  /** Audio frames the tag announces (the tag's own frame not counted). */
  readonly frames: number;
  readonly samplesPerFrame: number;
  readonly encoderDelay: number;
  readonly padding: number;
}

const ascii = (b: Uint8Array, at: number, s: string): boolean =>
  [...s].every((_, i) => b[at + i] === s.charCodeAt(i));

const u32 = (b: Uint8Array, at: number): number =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

const id3Size = (b: Uint8Array): number =>
  ascii(b, 0, 'ID3')
    ? 10 +
      (((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f)) +
      (b[5]! & 0x10 ? 10 : 0)
    : 0;

/** The tag in a frame starting at 0 of `b`, or null when the frame has no LAME tag. */
export const parseLameTag = (b: Uint8Array): Mp3Gapless | null => {
  if (!isMpegAudioFrameHeader(b, 0)) return null;
  const mpeg1 = ((b[1]! >> 3) & 3) === 3;
  const layer3 = ((b[1]! >> 1) & 3) === 1;
  if (!layer3) return null;
  const mono = ((b[3]! >> 6) & 3) === 3;
  const x = 4 + (mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17);
  if (!(ascii(b, x, 'Xing') || ascii(b, x, 'Info')) || b.length < x + 8) return null;
  const flags = u32(b, x + 4);
  if ((flags & 1) === 0) return null; // no frame count: the length cannot be told
  const frames = u32(b, x + 8);
  const lame = x + 8 + 4 + (flags & 2 ? 4 : 0) + (flags & 4 ? 100 : 0) + (flags & 8 ? 4 : 0);
  // encoder string (9), revision and VBR method (1), lowpass (1), replay gain (8), flags (1), bit rate (1)
  const at = lame + 21;
  if (b.length < at + 3) return null;
  const encoderDelay = (b[at]! << 4) | (b[at + 1]! >> 4);
  const padding = ((b[at + 1]! & 0x0f) << 8) | b[at + 2]!;
  return { frames, samplesPerFrame: mpeg1 ? 1152 : 576, encoderDelay, padding };
};

/** Reads the LAME tag of the MP3 file at `path` (after its ID3v2 tag, if any); null when it has none. */
export const readMp3Gapless = async (path: string): Promise<Mp3Gapless | null> => {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(10);
    await file.read(head, 0, 10, 0);
    const frame = new Uint8Array(2048);
    const { bytesRead } = await file.read(frame, 0, frame.length, id3Size(head));
    return parseLameTag(frame.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
};
