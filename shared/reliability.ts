/**
 * Test-retest reliability (r_xx) of each measure, for the reliable change index (shared/change.ts).
 * The defaults, their groups and their sources are section 10.2 of the research notes
 * (shared/research/speech-science.md, "Recommended default r_xx for the RCI"), picked by its rule:
 * the lowest ICC reported for read or free speech by healthy adults over days or more, rounded down to
 * 0.05; verbal labels mapped poor 0.40, moderate/acceptable 0.60, good 0.75, high/excellent 0.85; no
 * retest data at all: 0.50, flagged for local estimation. Model outputs (scores, probabilities) and
 * rating classes have no published retest reliability: they get a trend, never a reliable-change
 * verdict, unless the study sets a reliability it estimated itself.
 */
export const RELIABILITY_GROUPS = {
  intensity: {
    label: 'Intensity mean / SD',
    r: 0.5,
    basis:
      'Brown, Morris & Murry 1996 (±2 dB group, up to 6 dB individual); loudness reproducible only in longer samples (Almaghrabi 2022); level depends on device and distance',
  },
  f0_sd: {
    label: 'F0 SD (monopitch)',
    r: 0.5,
    basis: 'No retest ICC found: rule 3 (0.50, estimate locally)',
  },
  formants: {
    label: 'Formants (F1–F3)',
    r: 0.75,
    basis: 'Vogel 2011 stable; F2/F3 stable across days (PMC4558024); Almaghrabi 2022 excellent',
  },
  rate: {
    label: 'Speech or articulation rate',
    r: 0.6,
    basis:
      'Vogel 2011, Barnett 2020 "acceptable"; Feng 2024: picture description weaker; zu63y: speech quantity low',
  },
  pause: {
    label: 'Pause mean / SD, pause ratio',
    r: 0.4,
    basis:
      'Mixed: Barnett 2020 "acceptable" (reading); Stegmann 2020 median ICC low; free speech less stable than reading',
  },
  cpp: {
    label: 'CPP / CPPS',
    r: 0.6,
    basis: 'Leong 2013 moderate and sex-dependent; Park & Stepp 2019 ≥ .76; Japanese sentences "high"',
  },
  hnr: {
    label: 'HNR',
    r: 0.4,
    basis:
      'Leong 2013: NHR least consistent; Carding 2004 poor–moderate (Park & Stepp 2019 ≥ .76 for vowels)',
  },
  lexical_diversity: {
    label: 'TTR / lexical diversity',
    r: 0.5,
    basis: 'Hamrick 2023 r .49–.65; Stark 2023 poor–excellent; lexical diversity good for group use only',
  },
  syntax_content: {
    label: 'MLU, syntactic complexity, content density',
    r: 0.4,
    basis: 'Low in the zu63y preprint; Stark 2023 task-dependent',
  },
  no_retest_data: {
    label: 'Indicator without retest data',
    r: 0.5,
    basis: 'No retest study found: rule 3 (0.50, estimate locally)',
  },
} as const satisfies Record<string, { label: string; r: number; basis: string }>;
export type ReliabilityGroup = keyof typeof RELIABILITY_GROUPS;

/** The group of every service indicator; measures not listed (scores, probabilities, ratings) have no default. */
export const MEASURE_RELIABILITY_GROUP: Readonly<Record<string, ReliabilityGroup>> = {
  pd_volume: 'intensity',
  pd_monoloudness: 'intensity',
  pd_monotony: 'f0_sd',
  pd_articulation: 'formants',
  pd_speech_rate: 'rate',
  pd_speech_rate_stdev: 'no_retest_data',
  pd_pause_duration: 'pause',
  pd_pause_duration_stdev: 'pause',
  pd_voice_quality: 'cpp',
  pd_hnr: 'hnr',
  pd_stuttering: 'no_retest_data',
  ad_ttr: 'lexical_diversity',
  ad_brunet_index: 'lexical_diversity',
  ad_content_ratio: 'syntax_content',
  ad_mlu_words: 'syntax_content',
  ad_clause_ratio: 'syntax_content',
  ad_speech_rate: 'rate',
  ad_speech_rate_stdev: 'no_retest_data',
  ad_avg_pause_duration_ms: 'pause',
  ad_pause_filler_words_per_min: 'no_retest_data',
  ad_long_pause_ratio: 'pause',
  cc_word_rate: 'rate',
  cc_fragment_rate: 'no_retest_data',
  cc_filler_words_rate: 'no_retest_data',
};

/** Where a measure's reliability comes from: the documented default, or the study's own setting. */
export const RELIABILITY_SOURCES = ['default', 'study'] as const;
export type ReliabilitySource = (typeof RELIABILITY_SOURCES)[number];

export interface Reliability {
  readonly r: number;
  readonly source: ReliabilitySource;
}

/** A settable reliability: at least 0, below 1 (r = 1 would make every difference "reliable"). */
export const MIN_RELIABILITY = 0;
export const MAX_RELIABILITY = 0.99;

export const defaultReliability = (measureKey: string): number | null => {
  const g = MEASURE_RELIABILITY_GROUP[measureKey];
  return g ? RELIABILITY_GROUPS[g].r : null;
};

/** The study's setting when there is one, else the default; null: no reliability (trend only). */
export const reliabilityOf = (
  measureKey: string,
  studySettings: ReadonlyMap<string, number>,
): Reliability | null => {
  const own = studySettings.get(measureKey);
  if (own !== undefined) return { r: own, source: 'study' };
  const r = defaultReliability(measureKey);
  return r === null ? null : { r, source: 'default' };
};
