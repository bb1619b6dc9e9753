/**
 * An ID3v2 tag at the start of a file (id3.org, "ID3 tag version 2.4.0 - Main Structure", section 3.1):
 * `ID3`, a major version (2–4), a revision, a flags byte and the tag's size as four 7-bit bytes
 * ("syncsafe"), not counting the 10-byte header, nor the 10-byte footer that flag bit 4 announces. Taggers
 * put such tags before MP3 audio, and some before FLAC, so the audio's own first bytes come after it.
 */

/** Where the bytes after an ID3v2 tag at the start of `head` begin; 0 when `head` does not start with one. */
export const id3v2TagEnd = (head: Uint8Array): number => {
  if (head.length < 10 || head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return 0; // "ID3"
  const major = head[3]!;
  if (major < 2 || major > 4 || head[4] === 0xff) return 0;
  if ((head[6]! | head[7]! | head[8]! | head[9]!) & 0x80) return 0; // not syncsafe: not a tag
  const size = (head[6]! << 21) | (head[7]! << 14) | (head[8]! << 7) | head[9]!;
  const footer = major === 4 && (head[5]! & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
};

/** True when `head` starts with an ID3v2 tag directly followed by a FLAC stream's `fLaC` marker. */
export const isFlacAfterId3 = (head: Uint8Array): boolean => {
  const at = id3v2TagEnd(head);
  return (
    at > 0 && head[at] === 0x66 && head[at + 1] === 0x4c && head[at + 2] === 0x61 && head[at + 3] === 0x43
  );
};
