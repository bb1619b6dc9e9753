/**
 * Every format the product decodes, in the order they are tried: the first whose `recognise` accepts
 * the file's first bytes opens it. Each entry lives in its own module in this folder. The lossless
 * formats come first; CAF with PCM claims only uncompressed CAF, leaving CAF with AAC to its own entry.
 */
import { AIFF_FORMAT } from './aiff-decoder';
import { CAF_FORMAT } from './caf-decoder';
import { cafAacFormat } from './caf-aac';
import type { DecodableFormat } from './decoder';
import { FLAC_FORMAT } from './flac-decoder';
import { mp3Format } from './mp3';
import { mp4Format } from './mp4';
import { oggFormat } from './ogg';
import { WAV_FORMAT } from './wav-decoder';
import { webmFormat } from './webm';

export const DECODABLE_FORMATS: readonly DecodableFormat[] = [
  WAV_FORMAT,
  AIFF_FORMAT,
  CAF_FORMAT,
  FLAC_FORMAT,
  oggFormat,
  webmFormat,
  mp4Format,
  cafAacFormat,
  mp3Format,
];
