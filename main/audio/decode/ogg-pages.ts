/**
 * Writes Ogg pages (RFC 3533): capture pattern, version 0, header type, granule position, serial
 * number, page sequence number, CRC-32 (polynomial 0x04c11db7, no reflection, initial value 0, over
 * the page with its checksum field zeroed), and the lacing values that cut each packet into segments of
 * 255 bytes. Used to hand a decoder that reads only whole Ogg streams a short stream of packets.
 */

import { concatBytes } from './concat-bytes';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();

/** The Ogg page checksum of `bytes` (taken with the checksum field zeroed). */
export const oggCrc32 = (bytes: Uint8Array): number => {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  return crc;
};

/** A packet and the granule position of the page it ends on. */
export interface OggPacket {
  readonly data: Uint8Array;
  readonly granule: bigint;
}

const NO_PACKET_ENDS = -1n;
const MAX_SEGMENTS = 255;

interface PageFields {
  readonly headerType: number;
  readonly granule: bigint;
  readonly sequence: number;
  readonly lacing: readonly number[];
  readonly body: Uint8Array;
}

const page = (f: PageFields): Uint8Array => {
  const out = new Uint8Array(27 + f.lacing.length + f.body.length);
  const v = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53, 0], 0); // "OggS", version 0
  out[5] = f.headerType;
  v.setBigInt64(6, f.granule, true);
  v.setUint32(14, 1, true); // serial number
  v.setUint32(18, f.sequence, true);
  out[26] = f.lacing.length;
  out.set(f.lacing, 27);
  out.set(f.body, 27 + f.lacing.length);
  v.setUint32(22, oggCrc32(out), true);
  return out;
};

/** The pages of one packet, which starts on a fresh page: more than one when it needs over 255 segments. */
const packetPages = (
  p: OggPacket,
  sequence: number,
  flags: { first: boolean; last: boolean },
): Uint8Array[] => {
  const lacing = [...Array<number>(Math.floor(p.data.length / 255)).fill(255), p.data.length % 255];
  const pages: Uint8Array[] = [];
  for (let seg = 0, at = 0; seg < lacing.length; seg += MAX_SEGMENTS) {
    const part = lacing.slice(seg, seg + MAX_SEGMENTS);
    const length = part.reduce((n, l) => n + l, 0);
    const ends = seg + MAX_SEGMENTS >= lacing.length;
    const headerType =
      (seg > 0 ? 0x01 : 0) | (flags.first && seg === 0 ? 0x02 : 0) | (flags.last && ends ? 0x04 : 0);
    const granule = ends ? p.granule : NO_PACKET_ENDS;
    pages.push(
      page({
        headerType,
        granule,
        sequence: sequence + pages.length,
        lacing: part,
        body: p.data.subarray(at, at + length),
      }),
    );
    at += length;
  }
  return pages;
};

/** A whole logical stream, serial 1, each packet starting a page of its own. */
export const oggStream = (packets: readonly OggPacket[]): Uint8Array => {
  const pages: Uint8Array[] = [];
  packets.forEach((p, i) => {
    pages.push(...packetPages(p, pages.length, { first: i === 0, last: i === packets.length - 1 }));
  });
  return concatBytes(pages);
};
