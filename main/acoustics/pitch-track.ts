/**
 * The F0 track the local measures come from (To Pitch (cc), main/acoustics/pitch.ts), kept with them so
 * the recording page can draw it on the spectrogram: frame i at `firstTime + i · step` seconds, its F0 in
 * Hz, 0 where unvoiced. Stored as 32-bit floats, little-endian (4 bytes a frame: 72 kB for a minute at
 * To Pitch (cc)'s step of 0.25 / pitch floor, 3.3 ms at 75 Hz), which keeps F0 to about 0.00001 Hz at
 * speech pitches.
 */
export interface PitchTrack {
  readonly firstTime: number;
  readonly step: number;
  readonly f0: Float32Array;
}

/** The engine's track (64-bit) in the stored precision. */
export const compactTrack = (t: {
  readonly firstTime: number;
  readonly step: number;
  readonly f0: ArrayLike<number>;
}): PitchTrack => ({ firstTime: t.firstTime, step: t.step, f0: Float32Array.from(t.f0) });

/** The frames as bytes: float32 little-endian, whatever the machine's byte order. */
export const trackBytes = (f0: Float32Array): Buffer => {
  const b = Buffer.alloc(f0.length * 4);
  for (let i = 0; i < f0.length; i++) b.writeFloatLE(f0[i]!, i * 4);
  return b;
};

export const trackFromBytes = (b: Uint8Array): Float32Array => {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const f0 = new Float32Array(Math.floor(b.byteLength / 4));
  for (let i = 0; i < f0.length; i++) f0[i] = view.getFloat32(i * 4, true);
  return f0;
};
