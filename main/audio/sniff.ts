/**
 * Which audio container a file is, from its first bytes only (never more than the first 64), so a
 * caller can decide how to read a file before loading it:
 *
 * - `wav`: a RIFF file of form type `WAVE`, including its 64-bit variants RF64 and BW64 and the
 *   big-endian RIFX (the WAV reader then explains that it cannot read RIFX);
 * - `mp3`: an ID3v2 tag (`ID3` followed by a plausible version) not followed by FLAC's `fLaC` (which
 *   needs the bytes after the tag, when the caller gives them), or an MPEG audio frame header:
 *   11-bit sync 0xFFE, a version that is not the reserved one, layer I, II or III (layer bits 00
 *   are ADTS AAC, which is not MP3), a bit-rate index other than 15 and a sample-rate index other
 *   than 3;
 * - `mp4`: an ISO base-media file (MP4, M4A, 3GP, QuickTime with ftyp) whose first box is `ftyp`;
 * - `ogg`: an Ogg page, capture pattern `OggS` and stream structure version 0.
 *
 * Returns null for anything else, including headers too short to decide.
 */

import { isFlacAfterId3 } from './id3-tag';

export type AudioContainer = 'wav' | 'mp3' | 'mp4' | 'ogg';

/** The most bytes `sniffContainer` ever looks at. */
export const SNIFF_BYTES = 64;

const ascii = (b: Uint8Array, at: number, text: string): boolean => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

const isWav = (b: Uint8Array): boolean =>
  (ascii(b, 0, 'RIFF') || ascii(b, 0, 'RF64') || ascii(b, 0, 'BW64') || ascii(b, 0, 'RIFX')) &&
  ascii(b, 8, 'WAVE');

const isId3 = (b: Uint8Array): boolean =>
  // "ID3", major version 2–4 (0xFF never occurs there), revision < 0xFF.
  ascii(b, 0, 'ID3') && b.length >= 5 && b[3]! >= 2 && b[3]! <= 4 && b[4]! !== 0xff;

/** An MPEG-1/2/2.5 audio layer I–III frame header at `at`. */
export const isMpegAudioFrameHeader = (b: Uint8Array, at = 0): boolean => {
  if (b.length < at + 4) return false;
  const b0 = b[at]!;
  const b1 = b[at + 1]!;
  const b2 = b[at + 2]!;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false; // frame sync
  if (((b1 >> 3) & 0x03) === 0x01) return false; // reserved MPEG version
  if (((b1 >> 1) & 0x03) === 0x00) return false; // layer 00 is reserved (ADTS AAC uses it)
  if (((b2 >> 4) & 0x0f) === 0x0f) return false; // bad bit-rate index
  if (((b2 >> 2) & 0x03) === 0x03) return false; // reserved sample-rate index
  return true;
};

const isMp4 = (b: Uint8Array): boolean => ascii(b, 4, 'ftyp');

const isOgg = (b: Uint8Array): boolean => ascii(b, 0, 'OggS') && (b.length < 5 || b[4] === 0);

/** The container of a file from its first bytes (at most {@link SNIFF_BYTES} are read). */
export const sniffContainer = (head: Uint8Array): AudioContainer | null => {
  if (isFlacAfterId3(head)) return null; // FLAC behind a tag: a format the service does not take
  const b = head.length > SNIFF_BYTES ? head.subarray(0, SNIFF_BYTES) : head;
  if (isWav(b)) return 'wav';
  if (isOgg(b)) return 'ogg';
  if (isMp4(b)) return 'mp4';
  if (isId3(b) || isMpegAudioFrameHeader(b)) return 'mp3';
  return null;
};
