/**
 * Matroska and WebM files (RFC 9559), as browsers and video-call tools record them: recognised by the
 * EBML header's magic number at the start; Opus decoded, other codecs named (compressed-decoder.ts).
 */
import type { DecodableFormat } from './decoder';
import { openCompressed } from './compressed-decoder';

const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

export const webmFormat: DecodableFormat = {
  name: 'webm',
  recognise: (head) => EBML_MAGIC.every((b, i) => head[i] === b),
  open: (path) => openCompressed(path, { name: 'webm', what: 'WebM/Matroska' }),
};
