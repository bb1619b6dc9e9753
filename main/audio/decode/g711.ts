/**
 * ITU-T Recommendation G.711 (Pulse code modulation of voice frequencies): the 8-bit A-law and µ-law
 * codes expanded to linear samples. A-law codes a 13-bit magnitude (here scaled to 16 bits, ×8): the
 * even bits of every code are inverted on the line, the top bit set means positive, then 3 bits of
 * segment and 4 of step; each step is decoded to the middle of its interval. µ-law codes a 14-bit
 * magnitude (×4): every bit is inverted on the line, the top bit set means negative, the segment
 * values are offset by the bias 33 (132 at 16 bits) so segment boundaries fall on powers of two.
 */

const alawToLinear = (code: number): number => {
  const a = code ^ 0x55;
  const segment = (a >> 4) & 0x07;
  const step = a & 0x0f;
  const magnitude = segment === 0 ? (step << 4) + 8 : ((step << 4) + 0x108) << (segment - 1);
  return (a & 0x80) !== 0 ? magnitude : -magnitude;
};

const mulawToLinear = (code: number): number => {
  const u = ~code & 0xff;
  const segment = (u >> 4) & 0x07;
  const step = u & 0x0f;
  const magnitude = (((step << 3) + 0x84) << segment) - 0x84;
  return (u & 0x80) !== 0 ? -magnitude : magnitude;
};

/** Each of the 256 codes as a float in [-1, 1] (the 16-bit linear value / 32768). */
const table = (expand: (code: number) => number): Float32Array =>
  Float32Array.from({ length: 256 }, (_, code) => expand(code) / 32768);

export const ALAW_TO_FLOAT: Float32Array = table(alawToLinear);
export const MULAW_TO_FLOAT: Float32Array = table(mulawToLinear);
