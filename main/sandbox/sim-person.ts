/**
 * The simulated person behind a speaker account (seeded by the account id), and time: what stays the same
 * across one participant's recordings, and how it drifts with the recording date. See simulate.ts.
 */
import { clamp, Rng } from './sim-random';

/** A smooth, person-specific wander over time: two sinusoids, periods 4–15 months and 2–5 years. */
export interface Wander {
  a1: number;
  p1: number;
  f1: number;
  a2: number;
  p2: number;
  f2: number;
}

const drawWander = (r: Rng): Wander => ({
  a1: r.between(0.4, 1),
  p1: r.between(0.35, 1.25),
  f1: r.between(0, 2 * Math.PI),
  a2: r.between(0.4, 1),
  p2: r.between(2, 5),
  f2: r.between(0, 2 * Math.PI),
});

/** Roughly unit-variance (at most ±1.4) value of the wander at `t` years. */
export const wanderAt = (w: Wander, t: number): number =>
  w.a1 * Math.sin((2 * Math.PI * t) / w.p1 + w.f1) + w.a2 * Math.sin((2 * Math.PI * t) / w.p2 + w.f2);

export interface Person {
  female: boolean;
  age: number;
  /** Parkinson's severity latent in [0, 1] at the reference date and its yearly progression. */
  pdSev0: number;
  pdProg: number;
  /** Cognitive latent on the ordinal-logit scale (HC ≈ 0, MCI ≈ 1.6, AD ≈ 3) and its yearly progression. */
  cog0: number;
  cogProg: number;
  /** Wellbeing latents (standard normal, correlated through a common distress factor). */
  dep: number;
  anx: number;
  stress: number;
  moodWander: Wander;
  formWander: Wander;
  /** Personal offsets (standard normal) of each indicator around the population norm. */
  z: {
    rate: number;
    rateSd: number;
    pause: number;
    pauseSdRatio: number;
    f0sd: number;
    volume: number;
    loudSd: number;
    f2: number;
    cpp: number;
    hnr: number;
    stutter: number;
    herdan: number;
    content: number;
    mlu: number;
    clause: number;
    filler: number;
    longPause: number;
    clarity: number;
    positive: number;
  };
}

export const drawPerson = (accountId: string): Person => {
  const r = new Rng('voicescope-sim-person', accountId);
  const female = r.uniform() < 0.5;
  // Research participants of speech-biomarker studies skew older; own choice.
  const age = r.between(40, 85);

  // Parkinson's: about 12 % of simulated people carry a clinical-range latent (own choice), with
  // slow progression (Rusz 2021 reports "slight progression over 12 months", §1.5).
  const pdAffected = r.uniform() < 0.12;
  const pdSev0 = pdAffected ? r.between(0.3, 0.9) : r.between(0, 0.1);
  const pdProg = pdAffected ? r.between(0.03, 0.08) : 0;

  // Cognition: about 72 % healthy, 18 % MCI-like, 10 % AD-like (own choice).
  const u = r.uniform();
  const cog0 = u < 0.72 ? -0.3 + 0.5 * r.normal() : u < 0.9 ? 1.6 + 0.4 * r.normal() : 3 + 0.5 * r.normal();
  const cogProg = cog0 > 0.8 ? r.between(0.1, 0.3) : r.between(0, 0.03);

  // Wellbeing: one distress factor shared by depression, anxiety and stress (own choice of loadings).
  const g = r.normal();
  const dep = 0.7 * g + 0.71 * r.normal();
  const anx = 0.7 * g + 0.71 * r.normal();
  const stress = 0.6 * g + 0.8 * r.normal();

  const moodWander = drawWander(r);
  const formWander = drawWander(r);
  const z = {
    rate: r.normal(),
    rateSd: r.normal(),
    pause: r.normal(),
    pauseSdRatio: r.normal(),
    f0sd: r.normal(),
    volume: r.normal(),
    loudSd: r.normal(),
    f2: r.normal(),
    cpp: r.normal(),
    hnr: r.normal(),
    stutter: r.normal(),
    herdan: r.normal(),
    content: r.normal(),
    mlu: r.normal(),
    clause: r.normal(),
    filler: r.normal(),
    longPause: r.normal(),
    clarity: r.normal(),
    positive: r.normal(),
  };
  return { female, age, pdSev0, pdProg, cog0, cogProg, dep, anx, stress, moodWander, formWander, z };
};

// Time

const REFERENCE_MS = Date.UTC(2025, 0, 1);
const YEAR_MS = 365.25 * 86_400_000;

/** Years since 2025-01-01, clamped to ±5 years; 0 when the date does not parse. */
export const yearsOf = (recordedAt: string): number => {
  const ms = Date.parse(recordedAt);
  return Number.isFinite(ms) ? clamp((ms - REFERENCE_MS) / YEAR_MS, -5, 5) : 0;
};
