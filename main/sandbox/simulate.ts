/**
 * The sandbox's SIMULATED analysis values. Nothing here is measured from the audio: every value is
 * drawn from seeded generators so that it is deterministic, plausible and internally consistent.
 *
 * Structure of the simulation:
 *   - a per-person profile, seeded by the account id: sex, age, latent Parkinson's severity,
 *     latent cognitive status, latent wellbeing factors and a personal offset for every indicator,
 *     so one participant's values cluster;
 *   - a slow within-person drift, driven by `recordedAt`: progression of the Parkinson's and
 *     cognitive latents for affected people, and a smooth wander (two sinusoids of person-specific
 *     period and phase) of mood and vocal form, so longitudinal charts look like real data;
 *   - per-recording variation, seeded by the audio's SHA-256: a day-state part and a measurement
 *     part whose size grows as the speech gets shorter;
 *   - one recording profile computed for ALL analysis types at once, then filtered by type, so the
 *     speech rates, pauses and fillers of one recording agree across types whatever was requested.
 *
 * Ranges cite the project's reference document, /work/shared/research/speech-science.md, by section (§).
 * "Own choice" marks ranges the document does not give. Evidence levels (V, V2, R, D) are the document's.
 */
import { measuresOf } from '../../shared/api/measures';
import {
  ANXIETY_LEVELS,
  COGNITION_CLASSES,
  DEPRESSION_LEVELS,
  STRESS_LEVELS,
  type AnalysisType,
} from '../../shared/api/vocabulary';
import { drawPerson, wanderAt, yearsOf } from './sim-person';
import { clamp, hashUniform, Rng, round, sigmoid } from './sim-random';

/** Bump whenever the generated values change for the same input. */
export const SIMULATOR_VERSION = 'sim-1';

export interface SimulationInput {
  /** The speaker account: seeds a stable per-person baseline. */
  accountId: string;
  /** Hex digest of the uploaded audio: seeds per-recording variation. */
  audioSha256: string;
  type: AnalysisType;
  speechSeconds: number;
  durationSeconds: number;
  /** ISO date-time; drives a slow within-person drift over months. */
  recordedAt: string;
}

type Values = Record<string, number | string | null>;

// ---------------------------------------------------------------------------------------------------
// Scores and bands

/** Parkinson's band from the 0–100 score: low < 34, medium 34–66, high ≥ 67. */
const pdBand = (score: number): 'low' | 'medium' | 'high' =>
  score >= 67 ? 'high' : score >= 34 ? 'medium' : 'low';

/**
 * §3.2 mapping (D, a design choice): depression minimal < 10, moderate 10–19, severe ≥ 20 (PHQ-9);
 * anxiety GAD-7 0–4 minimal, 5–9 mild, 10–14 moderate, 15–21 severe; stress PSS-10 0–13 low,
 * 14–26 moderate, 27–40 high (a convention, V2).
 */
const depressionBand = (phq: number): (typeof DEPRESSION_LEVELS)[number] =>
  DEPRESSION_LEVELS[phq >= 20 ? 2 : phq >= 10 ? 1 : 0];
const anxietyBand = (gad: number): (typeof ANXIETY_LEVELS)[number] =>
  ANXIETY_LEVELS[gad >= 15 ? 3 : gad >= 10 ? 2 : gad >= 5 ? 1 : 0];
const stressBand = (pss: number): (typeof STRESS_LEVELS)[number] =>
  STRESS_LEVELS[pss >= 27 ? 2 : pss >= 14 ? 1 : 0];

/** §4 (D): 100 at 140–160 wpm, falling linearly to 0 at 90 and 210 wpm. */
const speakingRateScore = (wpm: number): number =>
  wpm < 140
    ? clamp((100 * (wpm - 90)) / 50, 0, 100)
    : wpm > 160
      ? clamp((100 * (210 - wpm)) / 50, 0, 100)
      : 100;

const score100 = (x: number): number => Math.round(clamp(x, 0, 100));

// ---------------------------------------------------------------------------------------------------
// The recording profile: every measure of every type
//
// Computed in stages, each a function of the stages before it. The stages draw from one random
// sequence, in this order: changing the order (or adding a draw) changes every value after it, which
// needs a new SIMULATOR_VERSION.

/** The person, the recording's length and date, and the latent states at that date. */
const recordingContext = (input: SimulationInput) => {
  const p = drawPerson(input.accountId);
  const r = new Rng('voicescope-sim-recording', input.audioSha256);
  const t = yearsOf(input.recordedAt);

  const speech = Number.isFinite(input.speechSeconds) && input.speechSeconds > 0 ? input.speechSeconds : 60;
  const duration =
    Number.isFinite(input.durationSeconds) && input.durationSeconds >= speech
      ? input.durationSeconds
      : speech / 0.8;
  /** Measurement noise grows as the speech gets shorter (≈ 1/√length, 60 s as reference). */
  const lf = clamp(Math.sqrt(60 / speech), 0.6, 1.8);
  /** Share of the audio that is not speech (pauses, silence, other speakers). */
  const nonSpeech = clamp(1 - speech / duration, 0, 0.9);

  // Latent states at the recording's date.
  const pdSev = clamp(p.pdSev0 + p.pdProg * t, 0, 1);
  const cogS = p.cog0 + p.cogProg * t;
  /** Cognitive impairment on a 0 (healthy) … 1 (AD) … 1.33 scale, for effect sizes. */
  const cogC = clamp(cogS, 0, 4) / 3;
  const mood = 0.35 * wanderAt(p.moodWander, t);
  const form = wanderAt(p.formWander, t);
  // Week-to-week wellbeing noise (SD 0.3) on top of a person latent of variance ≈ 1: fairly stable ratings.
  const depZ = p.dep + mood + 0.3 * r.normal();
  const anxZ = p.anx + mood + 0.3 * r.normal();
  const stressZ = p.stress + 0.8 * mood + 0.35 * r.normal();
  /** Day state shared by timing measures (tiredness, topic): not length-dependent. */
  const dayTempo = r.normal();
  const micState = r.normal();

  const m = () => lf * r.normal(); // measurement noise, scaled by length
  const n = () => r.normal(); // plain noise
  return { p, speech, lf, nonSpeech, pdSev, cogS, cogC, form, depZ, anxZ, stressZ, dayTempo, micState, m, n };
};
type Context = ReturnType<typeof recordingContext>;

/** Speech rate and pauses: the timing every model reads. */
const timingMeasures = ({ p, pdSev, cogC, form, depZ, dayTempo, m, n }: Context) => {
  // --- Speech rate (wpm). §4: about 150 wpm conversational (V2); §5: older speakers slower (V);
  // PD: inconsistent, no effect applied (§1.2); MCI/AD slower (§2.2 Tóth/Themistocleous; §2.4 R);
  // depression r = −0.23 with HAMD (§3.1) → about −4 wpm per SD. Person SD 14, within-person about 7 (own choice).
  const ratePerson = 150 - 0.45 * (p.age - 50) + 14 * p.z.rate;
  const rateTrue = clamp(ratePerson + 3 * form - 25 * cogC - 4 * depZ + 5 * dayTempo + 4 * m(), 60, 230);
  const pdRate = rateTrue + 1.5 * n();
  const adRate = rateTrue + 1.5 * n();
  const ccRate = rateTrue + 2 * n();

  // --- Speech-rate SD across 10 s windows (wpm): the document gives no norm; own choice about 12 % of
  // the rate (≈ 10–30 wpm); PD speakers accelerate more within a passage (Skodda 2008, §1.2) → +15 % × severity.
  const rateSdTrue =
    rateTrue * 0.12 * Math.exp(0.15 * p.z.rateSd) * (1 + 0.15 * pdSev) * Math.exp(0.15 * m());
  const pdRateSd = rateSdTrue * Math.exp(0.03 * n());
  const adRateSd = rateSdTrue * Math.exp(0.03 * n());

  // --- Mean silent pause (ms). §1.2 Campione & Véronis: "medium" pauses 200–1000 ms in spontaneous speech;
  // healthy mean set at about 520 ms (own choice within that band). PD ↑ (robust, §1.2, +45 % × severity,
  // size own choice); MCI/AD ↑ (§2.2 Pastoriza-Domínguez); depression ↑ (§3.1, r = +0.29 total pause time);
  // older speakers have longer pauses (§5).
  const pausePerson = 520 * Math.exp(0.18 * p.z.pause) * (1 + 0.003 * Math.max(0, p.age - 50));
  const pauseTrue =
    pausePerson *
    (1 + 0.45 * pdSev) *
    (1 + 0.4 * cogC) *
    Math.exp(0.05 * depZ - 0.04 * dayTempo + 0.08 * m());
  const pdPause = pauseTrue * Math.exp(0.02 * n());
  const adPause = pauseTrue * Math.exp(0.02 * n());

  // --- Pause SD (ms). Pause durations are log-normal (§1.3), SD ≈ 0.85 × mean (own choice); pause
  // variability rises with depression (§3.1, r = +0.38, the strongest) and in AD (§2.2 "more variance").
  const pauseSd =
    pauseTrue * 0.85 * Math.exp(0.12 * p.z.pauseSdRatio + 0.1 * depZ + 0.1 * m()) * (1 + 0.25 * cogC);

  return {
    ratePerson,
    rateTrue,
    pdRate,
    adRate,
    ccRate,
    rateSdTrue,
    pdRateSd,
    adRateSd,
    pauseTrue,
    pdPause,
    adPause,
    pauseSd,
  };
};
type Timing = ReturnType<typeof timingMeasures>;

/** Pitch, loudness, articulation, voice quality and repetitions. */
const voiceMeasures = ({ p, lf, pdSev, cogC, form, depZ, micState, m, n }: Context) => {
  // --- Monotony, F0 SD (Hz). §1.2: healthy connected speech men 15–25 Hz, women 25–40 Hz (R);
  // PD ↓ (robust; −35 % × severity, size own choice); speaking-F0 SD falls with age (§5, V2).
  const f0sdPerson = (p.female ? 32 : 20) * Math.exp(0.14 * p.z.f0sd) * (1 - 0.004 * Math.max(0, p.age - 60));
  const f0sdZ = p.z.f0sd + 0.6 * n(); // F0-variability deviation of this recording, also PD-model evidence
  const f0sd = f0sdPerson * Math.exp(0.14 * (f0sdZ - p.z.f0sd) * lf) * (1 - 0.35 * pdSev);

  // --- Volume (dB, Praat-style mean intensity over speech frames). §1 cautions: uncalibrated, so no
  // literature norm applies; own choice 58–72 dB (mean 65). PD −2 to −4 dB (Fox & Ramig, §1.2, V2) → −3 × severity.
  // Microphone distance varies between recordings (SD 2 dB, own choice).
  const volume = 65 + 3.5 * p.z.volume + 1.2 * form - 3 * pdSev + 2 * micState + 0.5 * m();

  // --- Monoloudness, SD of intensity (dB). No norm in the document; own choice about 8 dB (5–11).
  // PD: only "limited evidence" of a reduction (§1.2 Fumel 2024) → −0.8 dB × severity.
  const loudSd = 8 + 1.2 * p.z.loudSd - 0.8 * pdSev + 0.5 * m();

  // --- Articulation, F2 range (Hz, P95–P5 proxy). §1.1: no published norms (R); own choice men about 1150 Hz,
  // women about 1300 Hz. PD ↓ (F2 slopes, VAI; §1.2) → −15 % × severity; F2 variation ↓ with depression (§3.1, r = −0.17).
  const f2 =
    (p.female ? 1300 : 1150) * Math.exp(0.08 * p.z.f2 + 0.035 * m()) * (1 - 0.15 * pdSev) * (1 - 0.02 * depZ);

  // --- Voice quality, CPPS (dB, Praat). §1.4: connected-speech dysphonia cut-off 9.33 dB (Murton 2020, V),
  // healthy speakers above it; women lower than men (Buckley 2023). Own choice: men 12.3, women 11.6 dB,
  // person SD 0.9. PD ↓ (§1.2, −1.5 dB × severity, size own choice); MCI ↓ (§2.2 Themistocleous).
  const cpp = (p.female ? 11.6 : 12.3) + 0.9 * p.z.cpp - 1.5 * pdSev - 0.5 * cogC + 0.4 * m();

  // --- HNR (dB). §1.2: sustained /a/ about 20 dB in Praat (R); connected speech is lower; own choice
  // about 12–14 dB (person SD 2). PD ↓ (§1.2 Chiaramonte, direction) → −2.5 dB × severity.
  const hnr = (p.female ? 14 : 12.5) + 2 * p.z.hnr - 2.5 * pdSev + 1 * m();

  // --- Stuttering, repetitions/min. §1.2 (D): about 2.4/min healthy vs 4.4/min in PD (Gooch 2023).
  // Person median 2.0, log-normal (mean ≈ 2.4); PD ×(1 + 0.85 × severity); worse cognition more (§1.2).
  const stutter = 2.0 * Math.exp(0.5 * p.z.stutter + 0.3 * m()) * (1 + 0.85 * pdSev) * (1 + 0.3 * cogC);

  return { f0sdZ, f0sd, volume, loudSd, f2, cpp, hnr, stutter };
};
type Voice = ReturnType<typeof voiceMeasures>;

/** Vocabulary, utterances, fillers and long pauses. */
const languageMeasures = (
  { p, speech, nonSpeech, pdSev, cogC, depZ, dayTempo, m, n }: Context,
  { rateTrue }: Timing,
) => {
  // --- Lexical measures from a simulated word count. N = rate × speech time; types V = N^c (Herdan's law).
  // TTR = V/N is strongly length-dependent (§2.1, Bucks 2000), so it is derived, not drawn. Norms were not
  // retrieved (§8); own choice c ≈ 0.875 (TTR ≈ 0.5–0.6 for 100–250 words). Fewer unique words with
  // cognitive decline (§2.2 Mueller 2016, Fromm 2024) → c −0.025 × impairment.
  // Brunet's W = N^(V^−0.165) (§2.1 formula, V; typical spoken values 10–20, R) follows from N and V.
  const words = Math.max(20, Math.round((rateTrue * speech) / 60));
  const herdan = clamp(0.875 + 0.015 * p.z.herdan - 0.025 * cogC + 0.006 * m(), 0.78, 0.95);
  const types = Math.min(words, Math.max(2, Math.round(words ** herdan)));
  const ttr = types / words;
  const brunet = words ** (types ** -0.165);

  // --- Content ratio (open-class / all words). No norm in the document; own choice about 0.50 (0.42–0.58).
  // MCI/AD fewer content words (§2.2 Fromm 2024) → −0.05 × impairment.
  const content = 0.5 + 0.03 * p.z.content - 0.05 * cogC + 0.02 * m();

  // --- MLU (words). §2.4 (R prior): healthy older adults about 8–12 words; shorter and less informative
  // with AD (§2.2 Tóth 2018 "utterance length"; §2.4) → −2.5 words × impairment.
  const mlu = 10 + 1.5 * p.z.mlu - 2.5 * cogC + 0.9 * m();

  // --- Clause ratio (clauses / utterance). No norm in the document; own choice about 1.6 (1.2–2.0).
  // Syntactic impairment in AD (§2.2 Fraser 2016) → −0.3 × impairment.
  const clause = 1.6 + 0.2 * p.z.clause - 0.3 * cogC + 0.12 * m();

  // --- Filler words per minute. §4: 2–6 disfluencies per 100 words (V2) → 3–9/min at 150 wpm, of which
  // fillers are a part: person median 3.2/min, log-normal (own choice). Older speakers slightly more (§4
  // Bortfeld); hesitation rises in MCI (§2.2 Tóth 2018) → +40 % × impairment.
  const filler =
    3.2 *
    Math.exp(0.4 * p.z.filler + 0.1 * dayTempo + 0.2 * m()) *
    (1 + 0.01 * Math.max(0, p.age - 60)) *
    (1 + 0.4 * cogC);
  const adFiller = filler * Math.exp(0.03 * n());
  const ccFiller = filler * Math.exp(0.03 * n());

  // --- Long-pause ratio (time in pauses > 1 s / total audio; "long" per Campione & Véronis, §2.1).
  // Healthy percent pause time is about 20–35 % (§4, R); own choice: long pauses ≈ 6 % of the audio,
  // rising with the audio's non-speech share, with AD (§2.2) and PD (§1.2 longer pauses).
  const longPause =
    0.06 * Math.exp(0.3 * p.z.longPause + 0.1 * depZ + 0.2 * m()) * (1 + 0.35 * pdSev) * (1 + 1.0 * cogC) +
    0.1 * (nonSpeech - 0.2);

  return { herdan, ttr, brunet, content, mlu, clause, adFiller, ccFiller, longPause };
};
type Language = ReturnType<typeof languageMeasures>;

/** The models' outputs: the Parkinson's score, the cognition probabilities and the wellbeing ratings. */
const modelScores = (
  { pdSev, cogS, depZ, anxZ, stressZ, n }: Context,
  { ratePerson, rateTrue, pauseTrue }: Timing,
  { f0sdZ }: Voice,
  { herdan }: Language,
) => {
  // --- Parkinson's score: a logistic model of the latent severity plus this recording's evidence from the
  // two robust markers (§1.6: F0 variability ↓ and pause duration ↑ weigh most). Healthy people score
  // about 5–25, affected ones 50–95 (own choice; accuracies ≈ 70–90 %, §1.5).
  const pauseZ = Math.log(pauseTrue / 520) / 0.18;
  const pdEvidence = 0.35 * -f0sdZ + 0.35 * pauseZ;
  const pdScore = Math.round(clamp(100 * sigmoid(-2.6 + 5.5 * pdSev + 0.5 * pdEvidence + 0.2 * n()), 0, 100));

  // --- Cognition: ordinal logit on the latent plus this recording's temporal and lexical evidence
  // (§2.4: temporal and lexical-content measures weigh most). Cut points 0.9 (HC|MCI) and 2.4 (MCI|AD) with
  // scale 0.55: calibrated, soft probabilities (3-class accuracy about 68–70 % at best, §2.3/§2.4).
  const cogEvidence = 0.2 * ((ratePerson - rateTrue) / 14) + 0.2 * pauseZ - 0.2 * ((herdan - 0.875) / 0.015);
  const cogRec = cogS + 0.15 * cogEvidence + 0.25 * n();
  const pLeHc = sigmoid((0.9 - cogRec) / 0.55);
  const pLeMci = sigmoid((2.4 - cogRec) / 0.55);
  const pHc = round(pLeHc, 3);
  const pMci = round(clamp(pLeMci - pLeHc, 0, 1 - pHc), 3);
  const pAd = round(1 - pHc - pMci, 3);
  const probs = [pHc, pMci, pAd] as const;
  const best = probs.indexOf(Math.max(...probs));

  // --- Wellbeing ratings from the latents. PHQ-9 log-normal, median 4, σ 0.66: about 8 % ≥ 10, in line
  // with the 8.6 % PHQ-8 prevalence at ≥ 10 (Kroenke 2009, §3.2). GAD-7 median 3.5, σ 0.7 (own choice).
  // PSS-10 median 13 (population mean about 13, §3.2 V2), σ 0.35.
  const phq = clamp(4 * Math.exp(0.66 * depZ), 0, 27);
  const gad = clamp(3.5 * Math.exp(0.7 * anxZ), 0, 21);
  const pss = clamp(13 * Math.exp(0.35 * stressZ), 0, 40);

  return { pdScore, pHc, pMci, pAd, best, phq, gad, pss };
};

/** The communication coach's indicators (own choices unless cited). */
const coachMeasures = (
  { p, pdSev, depZ, stressZ, m, n }: Context,
  { ccRate, pauseTrue, rateSdTrue }: Timing,
  { cpp, stutter }: Voice,
  { mlu, longPause }: Language,
) => {
  // Fragment rate: stretches of speech between pauses per minute ≈ word rate / words per fragment, with
  // fragments somewhat shorter than utterances (0.65 × MLU); typically 15–30/min.
  const fragment = (ccRate / Math.max(3, 0.65 * mlu)) * Math.exp(0.05 * m());
  // Rhythm: §4 (D) centre on pauses of 0.2–1 s (0.6 s rated most natural, Front Psychol 2022) and a healthy
  // pause share; penalise distance from 600 ms, long-pause excess and uneven tempo.
  const rhythm =
    90 -
    45 * Math.abs(Math.log(pauseTrue / 600)) -
    150 * Math.max(0, longPause - 0.08) -
    0.4 * Math.max(0, rateSdTrue - 20) +
    4 * m();
  // Clarity: proportion of intelligible speech, about 75–95 for healthy speakers; lowered by dysphonia
  // (CPPS below the 9.33 dB cut-off, §1.4), repetitions and PD severity.
  const clarity =
    86 + 4 * p.z.clarity - 3 * Math.max(0, 11 - cpp) - 1.5 * Math.max(0, stutter - 2.5) - 8 * pdSev + 3 * m();
  // Positiveness: share of speech with a positive tone, about 40–80; lower with depression and stress.
  const positive = 60 + 10 * p.z.positive - 7 * depZ - 3 * stressZ + 5 * n();

  return { fragment, rhythm, clarity, positive };
};

const simulateAll = (input: SimulationInput): Values => {
  const ctx = recordingContext(input);
  const timing = timingMeasures(ctx);
  const voice = voiceMeasures(ctx);
  const language = languageMeasures(ctx, timing);
  const { pdScore, pHc, pMci, pAd, best, phq, gad, pss } = modelScores(ctx, timing, voice, language);
  const { fragment, rhythm, clarity, positive } = coachMeasures(ctx, timing, voice, language);
  const { pdRate, adRate, ccRate, pdRateSd, adRateSd, pdPause, adPause, pauseSd } = timing;
  const { f0sd, volume, loudSd, f2, cpp, hnr, stutter } = voice;
  const { ttr, brunet, content, mlu, clause, adFiller, ccFiller, longPause } = language;

  const wholeRate = (x: number) => Math.round(clamp(x, 60, 230));
  return {
    wb_stress: stressBand(pss),
    wb_anxiety: anxietyBand(gad),
    wb_depression: depressionBand(phq),

    pd_volume: Math.round(clamp(volume, 40, 85)),
    pd_monoloudness: round(clamp(loudSd, 2, 16), 2),
    pd_monotony: Math.round(clamp(f0sd, 5, 70)),
    pd_articulation: Math.round(clamp(f2, 600, 2000)),
    pd_speech_rate: wholeRate(pdRate),
    pd_speech_rate_stdev: Math.round(clamp(pdRateSd, 3, 60)),
    pd_pause_duration: Math.round(clamp(pdPause, 150, 2000)),
    pd_pause_duration_stdev: Math.round(clamp(pauseSd, 50, 2500)),
    pd_voice_quality: round(clamp(cpp, 5, 18), 2),
    pd_hnr: Math.round(clamp(hnr, 3, 25)),
    pd_stuttering: round(clamp(stutter, 0, 20), 2),
    pd_risk_band: pdBand(pdScore),
    pd_risk_score: pdScore,

    ad_ttr: round(clamp(ttr, 0.2, 0.95), 3),
    ad_brunet_index: round(clamp(brunet, 5, 30), 2),
    ad_content_ratio: round(clamp(content, 0.3, 0.7), 3),
    ad_mlu_words: round(clamp(mlu, 3, 20), 2),
    ad_clause_ratio: round(clamp(clause, 1, 3), 2),
    ad_speech_rate: round(clamp(adRate, 60, 230), 1),
    ad_speech_rate_stdev: round(clamp(adRateSd, 3, 60), 1),
    ad_avg_pause_duration_ms: round(clamp(adPause, 150, 2000), 1),
    ad_pause_filler_words_per_min: round(clamp(adFiller, 0, 25), 2),
    ad_long_pause_ratio: round(clamp(longPause, 0, 0.6), 3),
    ad_cognition: COGNITION_CLASSES[best === -1 ? 0 : best] ?? 'hc',
    ad_p_hc: pHc,
    ad_p_mci: pMci,
    ad_p_ad: pAd,

    cc_word_rate: wholeRate(ccRate),
    cc_fragment_rate: Math.round(clamp(fragment, 5, 45)),
    cc_filler_words_rate: round(clamp(ccFiller, 0, 25), 2),
    cc_rhythm: score100(rhythm),
    cc_clarity: score100(clarity),
    cc_positiveness: score100(positive),
    cc_speaking_rate: score100(speakingRateScore(wholeRate(ccRate))),
  };
};

// ---------------------------------------------------------------------------------------------------
// Availability

/** Never null: communication_coach requires all its members when present, and the cognition rating is required. */
const ALWAYS_AVAILABLE = (key: string): boolean => key.startsWith('cc_') || key === 'ad_cognition';
/** Keys that become unavailable together, so a result never carries half of one model output. */
const AVAILABILITY_GROUP: Readonly<Record<string, string>> = {
  ad_p_hc: 'ad_p',
  ad_p_mci: 'ad_p',
  ad_p_ad: 'ad_p',
  pd_risk_score: 'pd_risk',
  pd_risk_band: 'pd_risk',
};

const unavailable = (input: SimulationInput, key: string): boolean => {
  if (ALWAYS_AVAILABLE(key)) return false;
  const rate = input.speechSeconds < 45 ? 0.06 : 0.03;
  return hashUniform('voicescope-sim-null', input.audioSha256, AVAILABILITY_GROUP[key] ?? key) < rate;
};

// ---------------------------------------------------------------------------------------------------
// Public API

/**
 * Measure key (shared/api/measures.ts) → value, or null when this simulated result leaves the value
 * unavailable. Covers every catalogue measure of input.type and no other.
 */
export function simulateMeasures(input: SimulationInput): Record<string, number | string | null> {
  const all = simulateAll(input);
  const out: Values = {};
  for (const m of measuresOf(input.type)) {
    const v = all[m.key];
    // A catalogue measure the simulator does not know yet stays unavailable rather than breaking the sandbox.
    out[m.key] = v === undefined || unavailable(input, m.key) ? null : v;
  }
  return out;
}

/** Deterministic: true for about `failureRate` of recordings, decided per audio hash and type. */
export function failsProcessing(input: {
  audioSha256: string;
  type: AnalysisType;
  failureRate: number;
}): boolean {
  if (!(input.failureRate > 0)) return false;
  if (input.failureRate >= 1) return true;
  return hashUniform('voicescope-sim-fail', input.audioSha256, input.type) < input.failureRate;
}
