/** Typed arrays of one kind one after another in one new array, made by `make` for the whole length. */
const joined = <A extends Uint8Array | Float32Array>(parts: readonly A[], make: (length: number) => A): A => {
  const out = make(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** The byte arrays one after another in one new array. */
export const concatBytes = (parts: readonly Uint8Array[]): Uint8Array =>
  joined(parts, (n) => new Uint8Array(n));

/** The sample arrays one after another in one new array. */
export const concatSamples = (parts: readonly Float32Array[]): Float32Array =>
  joined(parts, (n) => new Float32Array(n));
