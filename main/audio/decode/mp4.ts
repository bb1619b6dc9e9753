/**
 * ISO base-media files (MP4, M4A, 3GP, QuickTime with `ftyp`): opened and their audio codec named.
 * AAC, what phones and voice-memo apps write, is recognised but not decoded (not-decoded.ts says why);
 * Opus and MP3 inside MP4 decode as in their own containers.
 */
import type { DecodableFormat } from './decoder';
import { openCompressed } from './compressed-decoder';
import { sniffContainer } from '../sniff';

export const mp4Format: DecodableFormat = {
  name: 'mp4',
  recognise: (head) => sniffContainer(head) === 'mp4',
  open: (path) => openCompressed(path, { name: 'mp4', what: 'MP4/M4A' }),
};
