/**
 * Audio formats the service does not take (it takes WAV, MP3, MP4 and OGG: spec, Limits), recognised from
 * their first bytes so the preview names them and says what to do, instead of "not audio". The file's
 * extension is not trusted: a FLAC file named `.wav` is still FLAC.
 *
 * Each advice says how to export a file the service takes (docs/manifest.md, "Formats"); the import
 * replaces it with "switch on conversion" for a file one of the product's decoders opens.
 */
import { isFlacAfterId3 } from './id3-tag';

export interface OtherFormat {
  /** The format's usual name, as the researcher knows it. */
  readonly name: string;
  /** What to do, in a researcher's words. */
  readonly action: string;
}

/** File extensions of these formats: a folder walk keeps them, so the preview can name each file. */
export const OTHER_AUDIO_EXTENSIONS = new Set([
  '.flac',
  '.aif',
  '.aiff',
  '.aifc',
  '.webm',
  '.weba',
  '.mka',
  '.wma',
  '.asf',
  '.caf',
  '.amr',
  '.au',
  '.snd',
  '.ape',
  '.wv',
]);

const ascii = (b: Uint8Array, at: number, text: string): boolean => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};
const bytes = (b: Uint8Array, at: number, expected: readonly number[]): boolean =>
  b.length >= at + expected.length && expected.every((x, i) => b[at + i] === x);

const LOSSLESS =
  'The service takes WAV, MP3, MP4 (M4A) or OGG: export it as WAV (16-bit PCM, mono), for example with Audacity or `ffmpeg -i <file> -ac 1 -c:a pcm_s16le <file>.wav`, and import the WAV copy.';
const LOSSY =
  'The service takes WAV, MP3, MP4 (M4A) or OGG: export it as WAV (16-bit PCM, mono; converting does not bring back what the compression removed), for example with `ffmpeg -i <file> -ac 1 -c:a pcm_s16le <file>.wav`, and import the WAV copy.';

/** The EBML document type of a Matroska/WebM file, when it is within the first bytes. */
const ebmlDocType = (b: Uint8Array): string | null => {
  // DocType element: ID 0x4282, a one-byte size (0x80 | n), then n ASCII bytes.
  for (let i = 4; i + 3 < b.length; i++) {
    if (b[i] === 0x42 && b[i + 1] === 0x82 && (b[i + 2]! & 0x80) !== 0) {
      const n = b[i + 2]! & 0x7f;
      return String.fromCharCode(...b.subarray(i + 3, Math.min(b.length, i + 3 + n)));
    }
  }
  return null;
};

/** The format of a file the service does not take, from its first bytes; null when it is none of them. */
export const recogniseOtherFormat = (head: Uint8Array): OtherFormat | null => {
  if (ascii(head, 0, 'fLaC') || isFlacAfterId3(head)) return { name: 'FLAC', action: LOSSLESS };
  if (ascii(head, 0, 'FORM') && ascii(head, 8, 'AIFF')) return { name: 'AIFF', action: LOSSLESS };
  if (ascii(head, 0, 'FORM') && ascii(head, 8, 'AIFC')) return { name: 'AIFF-C', action: LOSSLESS };
  if (bytes(head, 0, [0x1a, 0x45, 0xdf, 0xa3])) {
    const doc = ebmlDocType(head);
    return { name: doc === 'webm' ? 'WebM' : 'Matroska (MKA)', action: LOSSY };
  }
  if (bytes(head, 0, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]))
    return { name: 'Windows Media Audio (WMA/ASF)', action: LOSSY };
  if (ascii(head, 0, 'caff')) return { name: 'Core Audio (CAF)', action: LOSSLESS };
  if (ascii(head, 0, '#!AMR')) return { name: 'AMR (phone voice memo)', action: LOSSY };
  if (ascii(head, 0, '.snd')) return { name: 'Sun/NeXT audio (AU)', action: LOSSLESS };
  if (ascii(head, 0, 'MAC ')) return { name: "Monkey's Audio (APE)", action: LOSSLESS };
  if (ascii(head, 0, 'wvpk')) return { name: 'WavPack', action: LOSSLESS };
  return null;
};
