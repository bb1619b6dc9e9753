/**
 * Published reference values for the measures, as far as the project's speech-science reference
 * (shared/research/speech-science.md, compiled 2026-11-22) gives them with a source. Figures it marks
 * R (recalled, no source found) are left out on purpose. Each entry keeps that document's evidence
 * level: V verified in the source, V2 verified only in a secondary text, D derived from verified
 * figures. The codebook prints them next to the measure; they describe other instruments and tasks,
 * so they are context for reading the service's values, not norms for them.
 */
export interface ReferenceValue {
  readonly text: string;
  readonly source: string;
  readonly evidence: 'V' | 'V2' | 'D';
}

const CAMPIONE = 'Campione & Véronis 2002, Speech Prosody (isca-speech.org/archive/sp2002/sp02_199.html)';
const FUMEL = 'Fumel et al. 2024, JSLHR, doi:10.1044/2024_JSLHR-23-00588 (meta-analysis)';
const MURTON = 'Murton, Hillman & Mehta 2020, AJSLP 29:1596 (PMC7893528)';
const RATE_POP =
  'popular guides attributing it to the National Center for Voice and Speech (not peer-reviewed)';
const FILLERS = 'PMC9014665, citing Bortfeld et al. 2001, Fox Tree 1995, Shriberg 1994';

const pauses: ReferenceValue = {
  text: 'Healthy spontaneous speech: pause durations are log-normal; brief < 200 ms, medium 200–1000 ms, long > 1000 ms.',
  source: CAMPIONE,
  evidence: 'V',
};
const speechRate: ReferenceValue[] = [
  {
    text: 'Conversational English: about 150 words/min; conversational band 120–150 words/min, "fast" above 160.',
    source: RATE_POP,
    evidence: 'V2',
  },
];

export const REFERENCE_VALUES: Readonly<Record<string, readonly ReferenceValue[]>> = {
  pd_volume: [
    {
      text: "Parkinson's: vocal SPL 2–4 dB lower at 30 cm than controls. The service's level from an uncalibrated microphone is not SPL; compare changes within a participant, not absolute levels.",
      source: 'Fox & Ramig 1997, AJSLP 6:85, figure quoted in a book chapter',
      evidence: 'V2',
    },
  ],
  pd_monoloudness: [
    {
      text: "Parkinson's: only limited evidence that intensity variability is reduced.",
      source: FUMEL,
      evidence: 'V',
    },
  ],
  pd_monotony: [
    {
      text: "Parkinson's: F0 variability is reduced, one of the two robust speech effects across 36 studies; monopitch separates early PD from controls (p < 0.001) and iRBD from controls (p = 0.004; 448 participants, 5 languages).",
      source: `${FUMEL}; Rusz et al. 2021, Ann Neurol 90:62 (PMC8252762)`,
      evidence: 'V',
    },
    {
      text: 'Typical speaking F0: about 120 Hz (men) and 210 Hz (women); SD in Hz scales with mean F0, so compare within a participant.',
      source: 'Traunmüller & Eriksson',
      evidence: 'V',
    },
  ],
  pd_articulation: [
    {
      text: "Parkinson's: reduced F2 slopes and vowel articulation index. No normative values for this free-speech measure were found.",
      source: 'Walsh & Smith 2012 (PMC3418799); Skodda et al. 2011',
      evidence: 'V',
    },
  ],
  pd_speech_rate: [
    ...speechRate,
    {
      text: "Parkinson's: findings conflict (no difference, slower and faster all reported); only limited evidence of reduced speech rate.",
      source: FUMEL,
      evidence: 'V',
    },
  ],
  pd_pause_duration: [
    pauses,
    {
      text: "Parkinson's: pauses are longer, the second robust effect across studies (p < 0.001 PD vs controls in Rusz 2021).",
      source: `${FUMEL}; Rusz et al. 2021`,
      evidence: 'V',
    },
  ],
  pd_voice_quality: [
    {
      text: 'Praat CPP dysphonia cut-offs: < 9.33 dB in connected speech (Rainbow Passage; accuracy up to 94.5 %), < 14.45 dB on sustained /a/. Software and task matter: ADSV gives lower values (Rainbow < 6.11 dB).',
      source: MURTON,
      evidence: 'V',
    },
    {
      text: 'Korean Praat norms (4,524 speakers): CPPS sentence < 10.1 dB, vowel < 12.0 dB.',
      source: 'abstract on discovery.researcher.life',
      evidence: 'V',
    },
  ],
  pd_hnr: [
    {
      text: 'Healthy adults, sustained /a/, MDVP/CSL: HNR 10.9 dB (women) and 9.6 dB (men); other software (Praat) gives a different scale.',
      source: 'Felippe et al. 2006 (SciELO)',
      evidence: 'V',
    },
  ],
  pd_stuttering: [
    {
      text: "Stuttered disfluencies in conversation: controls 1.2 % ± 1.2 %, Parkinson's 2.2 % ± 1.8 % of syllables (p < 0.01).",
      source: 'Gooch et al. 2023, Mov Disord Clin Pract (100 PD / 25 HC)',
      evidence: 'V',
    },
    {
      text: "At about 200 syllables/min that is roughly 2.4/min (controls) and 4.4/min (Parkinson's).",
      source: 'derived from Gooch et al. 2023',
      evidence: 'D',
    },
  ],
  ad_speech_rate: speechRate,
  ad_avg_pause_duration_ms: [
    pauses,
    {
      text: "Pause-duration distributions grade from healthy (short) through MCI to Alzheimer's disease (longer, more variable).",
      source: 'Pastoriza-Domínguez et al. 2022 (medRxiv 2020.12.28.20248875)',
      evidence: 'V',
    },
  ],
  ad_brunet_index: [
    {
      text: 'W = N^(V^−0.165), N tokens and V types: lower W means a richer vocabulary; less length-sensitive than TTR.',
      source: 'formula as used by Bucks et al. 2000, Aphasiology 14:71, and Fraser et al. 2016',
      evidence: 'V',
    },
  ],
  ad_ttr: [
    {
      text: 'Strongly dependent on text length: compare recordings of similar length, or the same task.',
      source: 'Bucks et al. 2000, Aphasiology 14:71',
      evidence: 'V',
    },
  ],
  ad_long_pause_ratio: [
    {
      text: 'Long pauses are not defined the same way everywhere: > 1 s in Campione & Véronis; > 180 ms in bimodal pause analyses.',
      source: CAMPIONE,
      evidence: 'V',
    },
  ],
  ad_pause_filler_words_per_min: [
    { text: 'Disfluencies in spontaneous speech: about 2–6 per 100 words.', source: FILLERS, evidence: 'V2' },
  ],
  cc_word_rate: speechRate,
  cc_filler_words_rate: [
    {
      text: 'Disfluencies in spontaneous speech: about 2–6 per 100 words, i.e. about 3–9 per minute at 150 words/min.',
      source: FILLERS,
      evidence: 'V2',
    },
  ],
  cc_speaking_rate: [
    {
      text: 'Recommended rate for talks: 120–160 words/min (business presentations about 140).',
      source: 'speaking-coach blogs (weak evidence)',
      evidence: 'V2',
    },
  ],
};
