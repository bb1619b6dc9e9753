/**
 * Every format the product decodes, in the order they are tried: the first whose `recognise` accepts
 * the file's first bytes opens it. Each entry lives in its own module in this folder.
 */
import type { DecodableFormat } from './decoder';
import { AIFF_FORMAT } from './aiff-decoder';
import { CAF_FORMAT } from './caf-decoder';
import { FLAC_FORMAT } from './flac-decoder';
import { WAV_FORMAT } from './wav-decoder';

export const DECODABLE_FORMATS: readonly DecodableFormat[] = [
  WAV_FORMAT,
  AIFF_FORMAT,
  CAF_FORMAT,
  FLAC_FORMAT,
];
