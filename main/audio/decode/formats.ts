/**
 * Every format the product decodes, in the order they are tried: the first whose `recognise` accepts
 * the file's first bytes opens it. Each entry lives in its own module in this folder.
 */
import { cafAacFormat } from './caf-aac';
import type { DecodableFormat } from './decoder';
import { mp3Format } from './mp3';
import { mp4Format } from './mp4';
import { oggFormat } from './ogg';
import { webmFormat } from './webm';

export const DECODABLE_FORMATS: readonly DecodableFormat[] = [
  oggFormat,
  webmFormat,
  mp4Format,
  cafAacFormat,
  mp3Format,
];
