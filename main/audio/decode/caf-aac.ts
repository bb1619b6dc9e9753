/**
 * Core Audio Format files holding AAC (Apple's recorders and editors): recognised from the `desc`
 * chunk, which the CAF specification puts first, right after the 8-byte file header; its format ID
 * sits 28 bytes into the file. Not decoded, for the reason not-decoded.ts gives. CAF holding PCM is a
 * format of its own.
 */
import { err } from '../../../shared/result';
import type { DecodableFormat } from './decoder';
import { aacNotDecoded } from './not-decoded';

const ascii = (b: Uint8Array, at: number, s: string): boolean =>
  b.length >= at + s.length && [...s].every((_, i) => b[at + i] === s.charCodeAt(i));

export const cafAacFormat: DecodableFormat = {
  name: 'caf-aac',
  recognise: (head) => ascii(head, 0, 'caff') && ascii(head, 8, 'desc') && ascii(head, 28, 'aac '),
  open: () => Promise.resolve(err(aacNotDecoded('CAF'))),
};
