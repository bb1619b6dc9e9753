/** Ogg (RFC 3533) files: Opus decoded; Vorbis, FLAC and others named (compressed-decoder.ts). */
import type { DecodableFormat } from './decoder';
import { openCompressed } from './compressed-decoder';
import { sniffContainer } from '../sniff';

export const oggFormat: DecodableFormat = {
  name: 'ogg',
  recognise: (head) => sniffContainer(head) === 'ogg',
  open: (path) => openCompressed(path, { name: 'ogg', what: 'Ogg' }),
};
