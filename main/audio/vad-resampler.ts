/**
 * A streaming resampler for the speech estimate only: a windowed-sinc low-pass (Blackman window,
 * cut-off at 90 % of the lower Nyquist frequency) evaluated from a precomputed table, about 24 taps per
 * output sample: cheaper than a steep converter and good enough for a voice-activity model (speech
 * bands are kept, what lies above the new Nyquist frequency is attenuated rather than folded back as
 * noise). The copies sent to the service are resampled with the steeper filter of sinc-resampler.ts.
 */

/** Taps on each side of the output instant, per input sample of the wider of the two periods. */
const HALF_WIDTH_PERIODS = 4;
/** Table resolution: kernel values per input sample. */
const TABLE_STEPS = 64;

export interface VadResampler {
  /** The output samples that the input so far determines (a short delay is kept for the filter). */
  push(samples: Float32Array): Float32Array;
  /** The rest, as if the input were followed by silence. */
  flush(): Float32Array;
}

export const createVadResampler = (fromHz: number, toHz: number): VadResampler => {
  const step = fromHz / toHz; // input samples per output sample
  const stretch = Math.max(1, step); // the kernel widens when downsampling (its cut-off drops)
  const cutoff = 0.9 / stretch; // fraction of the input Nyquist frequency
  const half = Math.ceil(HALF_WIDTH_PERIODS * stretch);
  const table = new Float32Array(half * TABLE_STEPS + 2);
  for (let i = 0; i < table.length; i++) {
    const t = i / TABLE_STEPS; // distance in input samples
    const x = Math.PI * cutoff * t;
    const sinc = t === 0 ? 1 : Math.sin(x) / x;
    const w =
      t >= half ? 0 : 0.42 + 0.5 * Math.cos((Math.PI * t) / half) + 0.08 * Math.cos((2 * Math.PI * t) / half);
    table[i] = cutoff * sinc * w;
  }
  let buf = new Float32Array(half); // the input still needed, starting with silence before the start
  let base = -half; // input index of buf[0]
  let pos = 0; // input position of the next output sample

  const produce = (available: number): Float32Array => {
    // Output samples whose kernel lies within the input held.
    const end = base + available;
    const out = new Float32Array(Math.max(0, Math.ceil((end - half - pos) / step)));
    let n = 0;
    while (pos + half < end && n < out.length) {
      const centre = Math.floor(pos);
      const frac = pos - centre;
      let acc = 0;
      for (let k = -half + 1; k <= half; k++) {
        const d = Math.abs(k - frac) * TABLE_STEPS;
        const j = d | 0;
        if (j >= table.length - 1) continue;
        const kv = table[j]! + (table[j + 1]! - table[j]!) * (d - j);
        acc += buf[centre + k - base]! * kv;
      }
      out[n++] = acc;
      pos += step;
    }
    // Keep only what later outputs need.
    const keepFrom = Math.max(0, Math.floor(pos) - half - base);
    buf = buf.slice(keepFrom);
    base += keepFrom;
    return n === out.length ? out : out.slice(0, n);
  };

  return {
    push(samples) {
      const next = new Float32Array(buf.length + samples.length);
      next.set(buf);
      next.set(samples, buf.length);
      buf = next;
      return produce(buf.length);
    },
    flush() {
      const next = new Float32Array(buf.length + half + 1);
      next.set(buf);
      buf = next;
      return produce(buf.length);
    },
  };
};
