/**
 * Small, structurally valid MP3, Ogg Opus and MP4 (AAC) files for the sandbox's tests. Their payload
 * is zeros (nobody decodes it: the sandbox reads container metadata only), but every header, frame
 * and box is what music-metadata expects, so duration, channels, sample rate and bit rate come out
 * as asked.
 */

/** MPEG-1 Layer III at 32 kHz: 1152 samples per frame. `kbps` one of 32, 40, 48, 56, 64, 80, 96, 112, 128. */
export const makeMp3 = (opts: { seconds: number; kbps?: number; stereo?: boolean }): Uint8Array => {
  const kbps = opts.kbps ?? 64;
  const index = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128].indexOf(kbps);
  if (index < 1) throw new Error(`unsupported MP3 bit rate ${kbps}`);
  const sampleRate = 32_000;
  const frameBytes = Math.floor((144 * kbps * 1000) / sampleRate);
  const frames = Math.ceil((opts.seconds * sampleRate) / 1152);
  const out = new Uint8Array(frames * frameBytes);
  for (let f = 0; f < frames; f++) {
    const o = f * frameBytes;
    out[o] = 0xff;
    out[o + 1] = 0xfb; // MPEG-1, Layer III, no CRC
    out[o + 2] = (index << 4) | (0b10 << 2); // bit rate index, 32 kHz, no padding
    out[o + 3] = opts.stereo ? 0x00 : 0xc0; // stereo or single channel
  }
  return out;
};

/** MPEG-2 Layer III at 22.05 kHz and 8 kbps: a mono MP3 below the 32,000 bps minimum. */
export const makeLowBitRateMp3 = (seconds: number): Uint8Array => {
  const sampleRate = 22_050;
  const frameBytes = Math.floor((72 * 8000) / sampleRate);
  const frames = Math.ceil((seconds * sampleRate) / 576);
  const out = new Uint8Array(frames * frameBytes);
  for (let f = 0; f < frames; f++) {
    const o = f * frameBytes;
    out[o] = 0xff;
    out[o + 1] = 0xf3; // MPEG-2, Layer III, no CRC
    out[o + 2] = (1 << 4) | (0b00 << 2); // 8 kbps, 22.05 kHz
    out[o + 3] = 0xc0;
  }
  return out;
};

// --- Ogg Opus --------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();

const oggCrc = (bytes: Uint8Array): number => {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  return crc;
};

const oggPage = (opts: { headerType: number; granule: bigint; serial: number; seq: number; packets: Uint8Array[] }): Uint8Array => {
  const lacing: number[] = [];
  for (const p of opts.packets) {
    let n = p.length;
    while (n >= 255) { lacing.push(255); n -= 255; }
    lacing.push(n);
  }
  const dataLen = opts.packets.reduce((s, p) => s + p.length, 0);
  const page = new Uint8Array(27 + lacing.length + dataLen);
  const v = new DataView(page.buffer);
  page.set([0x4f, 0x67, 0x67, 0x53], 0); // OggS
  page[4] = 0;
  page[5] = opts.headerType;
  v.setBigInt64(6, opts.granule, true);
  v.setUint32(14, opts.serial, true);
  v.setUint32(18, opts.seq, true);
  page[26] = lacing.length;
  page.set(lacing, 27);
  let o = 27 + lacing.length;
  for (const p of opts.packets) { page.set(p, o); o += p.length; }
  v.setUint32(22, oggCrc(page), true);
  return page;
};

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};

/** Ogg Opus with one page per second of 50 packets of `packetBytes` (20 ms each); 100 bytes ≈ 40 kbps. */
export const makeOggOpus = (opts: { seconds: number; channels?: number; inputSampleRateHz?: number; packetBytes?: number }): Uint8Array => {
  const serial = 0x5eed;
  const preSkip = 312;
  const head = new Uint8Array(19);
  const hv = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'), 0);
  head[8] = 1;
  head[9] = opts.channels ?? 1;
  hv.setUint16(10, preSkip, true);
  hv.setUint32(12, opts.inputSampleRateHz ?? 16_000, true);
  hv.setUint16(16, 0, true);
  head[18] = 0;
  const vendor = new TextEncoder().encode('voicescope-test');
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const tv = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode('OpusTags'), 0);
  tv.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  tv.setUint32(12 + vendor.length, 0, true);

  const pages: Uint8Array[] = [
    oggPage({ headerType: 0x02, granule: 0n, serial, seq: 0, packets: [head] }),
    oggPage({ headerType: 0x00, granule: 0n, serial, seq: 1, packets: [tags] }),
  ];
  const seconds = Math.ceil(opts.seconds);
  const packet = new Uint8Array(opts.packetBytes ?? 100);
  packet[0] = 0x78; // TOC: CELT-only fullband 20 ms, mono, one frame
  for (let s = 1; s <= seconds; s++) {
    const granule = BigInt(preSkip + Math.round(Math.min(s, opts.seconds) * 48_000));
    pages.push(oggPage({ headerType: s === seconds ? 0x04 : 0x00, granule, serial, seq: s + 1, packets: Array.from({ length: 50 }, () => packet) }));
  }
  return concat(pages);
};

// --- MP4 (AAC) -------------------------------------------------------------------------------------

const box = (type: string, ...payload: Uint8Array[]): Uint8Array => {
  const body = concat(payload);
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(body, 8);
  return out;
};

const u32 = (...xs: number[]): Uint8Array => {
  const out = new Uint8Array(4 * xs.length);
  const v = new DataView(out.buffer);
  xs.forEach((x, i) => v.setUint32(4 * i, x >>> 0));
  return out;
};

const u16 = (...xs: number[]): Uint8Array => {
  const out = new Uint8Array(2 * xs.length);
  const v = new DataView(out.buffer);
  xs.forEach((x, i) => v.setUint16(2 * i, x));
  return out;
};

/** An M4A: one AAC track, 1024 samples per frame of `frameBytes` (bit rate ≈ frameBytes × 8 × rate / 1024). */
export const makeMp4 = (opts: { seconds: number; channels?: number; sampleRateHz?: number; frameBytes?: number }): Uint8Array => {
  const rate = opts.sampleRateHz ?? 16_000;
  const channels = opts.channels ?? 1;
  const frameBytes = opts.frameBytes ?? 300;
  const frames = Math.ceil((opts.seconds * rate) / 1024);
  const duration = frames * 1024;
  const matrix = u32(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000);

  const mvhd = box('mvhd', u32(0, 0, 0, rate, duration, 0x00010000), u16(0x0100, 0), u32(0, 0), matrix, u32(0, 0, 0, 0, 0, 0, 2));
  const tkhd = box('tkhd', u32(0x00000007, 0, 0, 1, 0, duration, 0, 0), u16(0, 0, 0x0100, 0), matrix, u32(0, 0));
  const mdhd = box('mdhd', u32(0, 0, 0, rate, duration), u16(0x55c4, 0));
  const hdlr = box('hdlr', u32(0, 0), new TextEncoder().encode('soun'), u32(0, 0, 0), new Uint8Array([0]));
  const esds = box('esds', u32(0), new Uint8Array([
    0x03, 0x19, 0x00, 0x01, 0x00, // ES descriptor
    0x04, 0x11, 0x40, 0x15, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // decoder config: AAC
    0x05, 0x02, 0x14, 0x08, // AudioSpecificConfig: AAC LC, 16 kHz, mono
    0x06, 0x01, 0x02,
  ]));
  const mp4a = box('mp4a', new Uint8Array(6), u16(1), u32(0, 0), u16(channels, 16, 0, 0), u32(rate << 16 >>> 0), esds);
  const stsd = box('stsd', u32(0, 1), mp4a);
  const stts = box('stts', u32(0, 1, frames, 1024));
  const stsc = box('stsc', u32(0, 1, 1, frames, 1));
  const stsz = box('stsz', u32(0, 0, frames), u32(...Array.from({ length: frames }, () => frameBytes)));
  const ftyp = box('ftyp', new TextEncoder().encode('M4A '), u32(0), new TextEncoder().encode('M4A mp42isom'));
  const mdatPayload = new Uint8Array(frames * frameBytes);
  // The chunk offset is only known once moov's size is; stco is fixed-size, so build twice.
  const build = (offset: number) => {
    const stco = box('stco', u32(0, 1, offset));
    const stbl = box('stbl', stsd, stts, stsc, stsz, stco);
    const minf = box('minf', box('smhd', u32(0, 0)), stbl);
    const mdia = box('mdia', mdhd, hdlr, minf);
    const trak = box('trak', tkhd, mdia);
    return box('moov', mvhd, trak);
  };
  const moovSize = build(0).length;
  const moov = build(ftyp.length + moovSize + 8);
  return concat([ftyp, moov, box('mdat', mdatPayload)]);
};
