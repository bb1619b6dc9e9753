/** MP3 files (MPEG-1/2/2.5 Layer III, with or without an ID3v2 tag), decoded gaplessly (compressed-decoder.ts). */
import type { DecodableFormat } from './decoder';
import { openCompressed } from './compressed-decoder';
import { sniffContainer } from '../sniff';

export const mp3Format: DecodableFormat = {
  name: 'mp3',
  recognise: (head) => sniffContainer(head) === 'mp3',
  open: (path) => openCompressed(path, { name: 'mp3', what: 'MP3' }),
};
