/**
 * The two ADPCM codings met in WAV files, one block at a time, to planar floats (16-bit value / 32768).
 *
 * IMA ADPCM, from the IMA Digital Audio Focus and Technical Working Group's "Recommended Practices for
 * Enhancing Digital Audio Compatibility in Multimedia Systems" (1992), with the block layout of
 * Microsoft's "Multimedia Standards Update" (WAVE_FORMAT_IMA_ADPCM, 0x0011): each channel's block
 * header is the first sample (16-bit), the step-table index and a reserved byte; then each channel in
 * turn gives 4 bytes, 8 four-bit codes, low nibble first. A code adds or subtracts (magnitude + ½)·step/4
 * and moves the step index by the index table. The difference is computed as that one product, rounded
 * down once; the recommendation's shift-and-add form (step/8 + step/4 + ...) rounds each term and
 * drifts from it by up to 188 LSB on 30 s of speech, while the product agrees with ffmpeg's decode to
 * the sample (experiment: test/unit/audio/decode-lossless.test.ts, ima cases).
 *
 * Microsoft ADPCM (WAVE_FORMAT_ADPCM, 0x0002), from the same update and the RIFF documentation: the
 * block header gives, for each channel, the predictor pair to use, the initial step (iDelta) and the
 * two first samples (sample 2 is output first); then each byte holds two signed four-bit codes, high
 * nibble first (in stereo, high nibble left, low right). The prediction is (s1·c1 + s2·c2) / 256, the
 * code times the step is added, and the step is scaled by the adaptation table / 256, at least 16.
 */

const IMA_STEPS = [
  7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66, 73, 80, 88, 97,
  107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724,
  796, 876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026,
  4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500,
  20350, 22385, 24623, 27086, 29794, 32767,
] as const;
const IMA_INDEX_MOVES = [-1, -1, -1, -1, 2, 4, 6, 8] as const;

const clamp16 = (v: number): number => (v > 32767 ? 32767 : v < -32768 ? -32768 : v);

interface ImaState {
  predictor: number;
  index: number;
}

const imaStep = (s: ImaState, code: number): number => {
  const step = IMA_STEPS[s.index]!;
  const diff = ((2 * (code & 7) + 1) * step) >> 3;
  s.predictor = clamp16(code & 8 ? s.predictor - diff : s.predictor + diff);
  s.index = Math.min(88, Math.max(0, s.index + IMA_INDEX_MOVES[code & 7]!));
  return s.predictor;
};

/** One IMA ADPCM block (or the start of one cut short): `samples` samples of every channel. */
export const decodeImaBlock = (block: Uint8Array, channels: number, samples: number): Float32Array[] => {
  const dv = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const out: Float32Array[] = [];
  for (let c = 0; c < channels; c++) {
    const ch = new Float32Array(samples);
    const s: ImaState = {
      predictor: dv.getInt16(c * 4, true),
      index: Math.min(88, block[c * 4 + 2]!),
    };
    ch[0] = s.predictor / 32768;
    // After the headers, each channel gives 4 bytes (8 codes) in turn.
    for (let i = 1, word = 0; i < samples; word++) {
      const at = channels * 4 + (word * channels + c) * 4;
      for (let k = 0; k < 4 && i < samples; k++) {
        const byte = block[at + k]!;
        ch[i++] = imaStep(s, byte & 0x0f) / 32768;
        if (i < samples) ch[i++] = imaStep(s, byte >> 4) / 32768;
      }
    }
    out.push(ch);
  }
  return out;
};

const MS_ADAPTATION = [
  230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230,
] as const;

interface MsState {
  c1: number;
  c2: number;
  delta: number;
  s1: number;
  s2: number;
}

const msStep = (s: MsState, code: number): number => {
  const signed = code >= 8 ? code - 16 : code;
  const predicted = Math.trunc((s.s1 * s.c1 + s.s2 * s.c2) / 256);
  const sample = clamp16(predicted + signed * s.delta);
  s.s2 = s.s1;
  s.s1 = sample;
  s.delta = Math.max(16, Math.trunc((MS_ADAPTATION[code]! * s.delta) / 256));
  return sample;
};

/** One Microsoft ADPCM block (or the start of one cut short): `samples` samples of every channel. */
export const decodeMsBlock = (
  block: Uint8Array,
  channels: number,
  samples: number,
  coefficients: readonly (readonly [number, number])[],
): Float32Array[] => {
  const dv = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const states: MsState[] = [];
  const out: Float32Array[] = [];
  for (let c = 0; c < channels; c++) {
    const pair = coefficients[block[c]!] ?? coefficients[0] ?? [256, 0];
    const s: MsState = {
      c1: pair[0],
      c2: pair[1],
      delta: dv.getInt16(channels + c * 2, true),
      s1: dv.getInt16(channels * 3 + c * 2, true),
      s2: dv.getInt16(channels * 5 + c * 2, true),
    };
    states.push(s);
    const ch = new Float32Array(samples);
    ch[0] = s.s2 / 32768;
    if (samples > 1) ch[1] = s.s1 / 32768;
    out.push(ch);
  }
  // Codes follow in order, a nibble each, high first, cycling through the channels.
  let nibble = 0;
  const base = channels * 7;
  for (let i = 2; i < samples; i++) {
    for (let c = 0; c < channels; c++, nibble++) {
      const byte = block[base + (nibble >> 1)]!;
      const code = (nibble & 1) === 0 ? byte >> 4 : byte & 0x0f;
      out[c]![i] = msStep(states[c]!, code) / 32768;
    }
  }
  return out;
};
