/**
 * Validation signals with known answers, made in code (seeded, so every run makes the same files):
 * glottal pulse trains with set jitter, vowels with set shimmer, vowels with noise at a set HNR, and
 * sustained vowels with slow F0 movement. Each pulse is filtered by three formant resonators, so the
 * signals look like vowels to every analysis.
 */
export interface SyntheticSignal {
  readonly name: string;
  readonly samples: Float32Array;
  readonly sampleRate: number;
  /** What the signal was built to have, in the measures' units. */
  readonly known: Partial<Record<'f0_mean_hz' | 'jitter_local_pct' | 'shimmer_local_pct' | 'hnr_db', number>>;
}

/** Mulberry32: a small seeded generator. */
export const seeded = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const gaussian =
  (rand: () => number): (() => number) =>
  () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };

/** Second-order resonator (formant) applied in place. */
const resonate = (x: Float32Array, fs: number, f: number, bw: number): void => {
  const r = Math.exp((-Math.PI * bw) / fs);
  const a1 = 2 * r * Math.cos((2 * Math.PI * f) / fs);
  const a2 = -r * r;
  const g = 1 - r;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const y = g * x[i]! + a1 * y1 + a2 * y2;
    x[i] = y;
    y2 = y1;
    y1 = y;
  }
};

export interface VowelOptions {
  readonly seconds: number;
  readonly sampleRate?: number;
  /** F0 in Hz at time t. */
  readonly f0: (t: number) => number;
  /** Relative SD of each period (0.01 = 1 %). */
  readonly periodSd?: number;
  /** Relative SD of each pulse's amplitude. */
  readonly amplitudeSd?: number;
  readonly formants?: readonly (readonly [number, number])[];
  /** Harmonics-to-noise ratio in dB of added white noise; omitted for none. */
  readonly hnrDb?: number;
  readonly seed?: number;
  readonly peak?: number;
}

/** A vowel from a train of glottal pulses (a short smooth pulse per period) through formant resonators. */
export const vowel = (o: VowelOptions): Float32Array => {
  const fs = o.sampleRate ?? 16000;
  const n = Math.round(o.seconds * fs);
  const rand = seeded(o.seed ?? 1);
  const g = gaussian(rand);
  const x = new Float32Array(n);
  let t = 0.01;
  while (t < o.seconds - 0.01) {
    const amp = 1 + (o.amplitudeSd ?? 0) * g();
    // a Rosenberg-like pulse: derivative of a raised cosine over 40 % of the period
    const period = (1 / o.f0(t)) * (1 + (o.periodSd ?? 0) * g());
    const width = 0.4 * period * fs;
    const start = t * fs;
    for (let k = Math.floor(start); k < start + width && k < n; k++) {
      const u = (k - start) / width;
      if (u < 0) continue;
      x[k] = x[k]! + amp * Math.sin(2 * Math.PI * u) * Math.sin(Math.PI * u);
    }
    t += period;
  }
  for (const [f, bw] of o.formants ?? [
    [700, 80],
    [1220, 90],
    [2600, 120],
  ])
    resonate(x, fs, f, bw);
  if (o.hnrDb !== undefined) {
    let p = 0;
    for (const v of x) p += v * v;
    p /= n;
    const sdNoise = Math.sqrt(p / 10 ** (o.hnrDb / 10));
    for (let i = 0; i < n; i++) x[i] = x[i]! + sdNoise * g();
  }
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v));
  const scale = (o.peak ?? 0.5) / (peak || 1);
  for (let i = 0; i < n; i++) x[i] = x[i]! * scale;
  return x;
};

/** Expected local jitter or shimmer (%) of independent Gaussian perturbations of relative SD `sd`: E|a − b| = 2σ/√π. */
export const expectedLocalPct = (sd: number): number => ((2 * sd) / Math.sqrt(Math.PI)) * 100;

export const syntheticSet = (): SyntheticSignal[] => {
  const out: SyntheticSignal[] = [];
  const fs = 16000;
  for (const [i, jit] of [0.005, 0.01, 0.02].entries()) {
    out.push({
      name: `pulses-jitter-${jit * 100}pct`,
      samples: vowel({ seconds: 2, sampleRate: fs, f0: () => 120, periodSd: jit, seed: 10 + i }),
      sampleRate: fs,
      known: { f0_mean_hz: 120, jitter_local_pct: expectedLocalPct(jit) },
    });
  }
  for (const [i, sh] of [0.02, 0.05, 0.1].entries()) {
    out.push({
      name: `vowel-shimmer-${sh * 100}pct`,
      samples: vowel({ seconds: 2, sampleRate: fs, f0: () => 200, amplitudeSd: sh, seed: 20 + i }),
      sampleRate: fs,
      known: { f0_mean_hz: 200, shimmer_local_pct: expectedLocalPct(sh) },
    });
  }
  for (const [i, hnr] of [5, 10, 20].entries()) {
    out.push({
      name: `vowel-hnr-${hnr}db`,
      samples: vowel({ seconds: 2, sampleRate: fs, f0: () => 150, hnrDb: hnr, seed: 30 + i }),
      sampleRate: fs,
      known: { f0_mean_hz: 150, hnr_db: hnr },
    });
  }
  out.push({
    name: 'sustained-vowel-vibrato-44k',
    samples: vowel({
      seconds: 3,
      sampleRate: 44100,
      f0: (t) => 110 * 2 ** ((0.5 * Math.sin(2 * Math.PI * 5 * t)) / 12),
      periodSd: 0.004,
      amplitudeSd: 0.03,
      hnrDb: 25,
      formants: [
        [300, 60],
        [2200, 100],
        [3000, 150],
      ],
      seed: 40,
    }),
    sampleRate: 44100,
    known: {},
  });
  out.push({
    name: 'sustained-vowel-female-glide',
    samples: vowel({
      seconds: 3,
      sampleRate: 22050,
      f0: (t) => 220 + 30 * t,
      periodSd: 0.008,
      amplitudeSd: 0.05,
      hnrDb: 18,
      seed: 41,
    }),
    sampleRate: 22050,
    known: {},
  });
  return out;
};
