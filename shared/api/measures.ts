/**
 * The measure catalogue: every value the service can return, under one version-neutral key, with the
 * wire path that carries it in each version. The domain mapper, the sandbox's simulator, the UI and
 * the export codebook all read this table, so a measure is named, typed and explained in one place.
 * Meanings and units are the specification's own words (spec: Resources, "Analysis response").
 */
import {
  ANXIETY_LEVELS,
  COGNITION_CLASSES,
  DEPRESSION_LEVELS,
  STRESS_LEVELS,
  type AnalysisType,
  type ApiVersion,
} from './vocabulary';

/** indicator: a measured acoustic or linguistic quantity; insight: a rating class; score and probability: model outputs. */
export const MEASURE_KINDS = ['indicator', 'insight', 'score', 'probability'] as const;
export type MeasureKind = (typeof MEASURE_KINDS)[number];
export type MeasureValueType = 'integer' | 'number' | 'category';

export interface MeasureDef {
  /** Stable, SPSS/SAS-safe column name: ASCII snake_case, at most 32 characters, prefixed by analysis. */
  readonly key: string;
  readonly analysis: AnalysisType;
  /** The spec's own field name. */
  readonly field: string;
  readonly label: string;
  readonly kind: MeasureKind;
  readonly valueType: MeasureValueType;
  readonly unit: string | null;
  /** Allowed values, in order, for categories whose values the spec lists. */
  readonly allowed?: readonly string[];
  /** Closed numeric range where the spec gives one. */
  readonly range?: readonly [number, number];
  /**
   * Our documented reading where the spec gives no range (docs/spec-decisions.md): values outside it are
   * kept and flagged, but it is not written into exports as a constraint.
   */
  readonly assumedRange?: readonly [number, number];
  /** A quantity that cannot be negative (duration, rate, ratio, standard deviation): below zero is flagged. */
  readonly nonNegative?: boolean;
  readonly meaning: string;
  /** Path inside the analysis object (e.g. `analysis.parkinsons`) in each version; absent where the version lacks it. */
  readonly path: Partial<Record<ApiVersion, readonly string[]>>;
}

const both = (...p: string[]) => ({ 'v1.3': p, 'v1.2': p });

const wb = (
  field: 'stress' | 'anxiety' | 'depression',
  allowed: readonly string[],
  meaning: string,
): MeasureDef => ({
  key: `wb_${field}`,
  analysis: 'wellbeing',
  field,
  label: field[0]!.toUpperCase() + field.slice(1),
  kind: 'insight',
  valueType: 'category',
  unit: null,
  allowed,
  meaning,
  path: { 'v1.3': ['insights', field, 'rating'], 'v1.2': ['predictions', field, 'result'] },
});

const pd = (
  field: string,
  label: string,
  valueType: 'integer' | 'number',
  unit: string,
  meaning: string,
): MeasureDef => ({
  key: `pd_${field}`,
  analysis: 'parkinsons',
  field,
  label,
  kind: 'indicator',
  valueType,
  unit,
  meaning,
  path: both('indicators', field),
});

const ad = (field: string, label: string, unit: string | null, meaning: string): MeasureDef => ({
  key: `ad_${field}`,
  analysis: 'alzheimers',
  field,
  label,
  kind: 'indicator',
  valueType: 'number',
  unit,
  meaning,
  path: both('indicators', field),
});

const adProb = (cls: 'hc' | 'mci' | 'ad', what: string): MeasureDef => ({
  key: `ad_p_${cls}`,
  analysis: 'alzheimers',
  field: cls,
  label: `Probability: ${what}`,
  kind: 'probability',
  valueType: 'number',
  unit: null,
  range: [0, 1],
  meaning: `Probability of ${what}`,
  path: { 'v1.3': ['insights', 'cognition', 'scores', cls], 'v1.2': ['predictions', `${cls}_probability`] },
});

const ccScore = (field: string, label: string, meaning: string): MeasureDef => ({
  key: `cc_${field}`,
  analysis: 'communication_coach',
  field,
  label,
  kind: 'score',
  valueType: 'integer',
  unit: 'score 0–100',
  range: [0, 100],
  meaning,
  path: { 'v1.3': ['insights', field, 'score'] },
});

const CATALOGUE: readonly MeasureDef[] = [
  wb('stress', STRESS_LEVELS, 'Stress level'),
  wb('anxiety', ANXIETY_LEVELS, 'Anxiety level'),
  wb('depression', DEPRESSION_LEVELS, 'Depression level'),

  pd('volume', 'Volume', 'integer', 'dB', 'Mean energy'),
  pd('monoloudness', 'Monoloudness', 'number', 'dB', 'Standard deviation of loudness across the utterance'),
  pd('monotony', 'Monotony', 'integer', 'Hz', 'Standard deviation of fundamental frequency'),
  pd('articulation', 'Articulation', 'integer', 'Hz', 'Dynamic range of second formant'),
  pd('speech_rate', 'Speech rate', 'integer', 'words/min', 'Mean words per minute'),
  pd('speech_rate_stdev', 'Speech rate SD', 'integer', 'words/min', 'Standard deviation of speech rate'),
  pd('pause_duration', 'Pause duration', 'integer', 'ms', 'Mean duration of silent pauses'),
  pd('pause_duration_stdev', 'Pause duration SD', 'integer', 'ms', 'Standard deviation of pause duration'),
  pd('voice_quality', 'Voice quality (CPP)', 'number', 'dB', 'Cepstral peak prominence'),
  pd('hnr', 'Harmonics-to-noise ratio', 'integer', 'dB', 'Harmonics-to-noise ratio'),
  pd('stuttering', 'Stuttering', 'number', 'repetitions/min', 'Word and n-gram repetitions per minute'),
  {
    key: 'pd_risk_band',
    analysis: 'parkinsons',
    field: 'rating',
    label: "Parkinson's risk band",
    kind: 'insight',
    valueType: 'category',
    unit: null,
    meaning: "Risk band derived from the Parkinson's score (allowed values not given by the specification)",
    path: { 'v1.3': ['insights', 'parkinsons', 'rating'], 'v1.2': ['predictions', 'risk_band'] },
  },
  {
    key: 'pd_risk_score',
    analysis: 'parkinsons',
    field: 'score',
    label: "Parkinson's score",
    kind: 'score',
    valueType: 'integer',
    unit: null,
    meaning: 'Disease probability (numeric range not given by the specification; read as 0 to 100)',
    assumedRange: [0, 100],
    path: { 'v1.3': ['insights', 'parkinsons', 'score'], 'v1.2': ['predictions', 'risk_score'] },
  },

  ad('ttr', 'Type-token ratio', null, 'Type-token ratio'),
  ad('brunet_index', "Brunet's index", null, "Brunet's index"),
  ad('content_ratio', 'Content ratio', null, 'Content words to total words'),
  ad('mlu_words', 'Mean length of utterance', 'words', 'Mean length of utterance in words'),
  ad('clause_ratio', 'Clause ratio', null, 'Clauses to utterances'),
  ad('speech_rate', 'Speech rate', 'words/min', 'Mean words per minute'),
  ad('speech_rate_stdev', 'Speech rate SD', 'words/min', 'Standard deviation of speech rate'),
  ad('avg_pause_duration_ms', 'Mean pause duration', 'ms', 'Mean pause duration'),
  ad('pause_filler_words_per_min', 'Pause fillers', 'words/min', 'Pause filler words per minute'),
  ad(
    'long_pause_ratio',
    'Long-pause ratio',
    'proportion',
    'Proportion of total audio duration spent in long pauses',
  ),
  {
    key: 'ad_cognition',
    analysis: 'alzheimers',
    field: 'rating',
    label: 'Cognition class',
    kind: 'insight',
    valueType: 'category',
    unit: null,
    allowed: COGNITION_CLASSES,
    meaning: "Predicted class: hc (healthy), mci (mild cognitive impairment) or ad (Alzheimer's disease)",
    path: { 'v1.3': ['insights', 'cognition', 'rating'], 'v1.2': ['predictions', 'prediction'] },
  },
  adProb('hc', 'healthy cognition'),
  adProb('mci', 'mild cognitive impairment'),
  adProb('ad', "Alzheimer's disease"),

  {
    key: 'cc_word_rate',
    analysis: 'communication_coach',
    field: 'word_rate',
    label: 'Word rate',
    kind: 'indicator',
    valueType: 'integer',
    unit: 'words/min',
    meaning: 'Words per minute',
    path: { 'v1.3': ['indicators', 'word_rate'] },
  },
  {
    key: 'cc_fragment_rate',
    analysis: 'communication_coach',
    field: 'fragment_rate',
    label: 'Fragment rate',
    kind: 'indicator',
    valueType: 'integer',
    unit: 'fragments/min',
    meaning: 'Speech fragments per minute',
    path: { 'v1.3': ['indicators', 'fragment_rate'] },
  },
  {
    key: 'cc_filler_words_rate',
    analysis: 'communication_coach',
    field: 'filler_words_rate',
    label: 'Filler words',
    kind: 'indicator',
    valueType: 'number',
    unit: 'words/min',
    meaning: 'Filler words per minute',
    path: { 'v1.3': ['indicators', 'filler_words_rate'] },
  },
  ccScore('rhythm', 'Rhythm', 'Balance between speech and pauses'),
  ccScore('clarity', 'Clarity', 'Proportion of intelligible speech'),
  ccScore('positiveness', 'Positiveness', 'Proportion of speech with a positive tone'),
  ccScore(
    'speaking_rate',
    'Speaking rate',
    "Closeness of the speaker's word rate to the ideal words-per-minute rate",
  ),
];

/** Measures that cannot be negative by what they are: durations, rates per minute, ratios, spreads. */
const NON_NEGATIVE: ReadonlySet<string> = new Set([
  'pd_monoloudness',
  'pd_monotony',
  'pd_articulation',
  'pd_speech_rate',
  'pd_speech_rate_stdev',
  'pd_pause_duration',
  'pd_pause_duration_stdev',
  'pd_stuttering',
  'ad_ttr',
  'ad_brunet_index',
  'ad_content_ratio',
  'ad_mlu_words',
  'ad_clause_ratio',
  'ad_speech_rate',
  'ad_speech_rate_stdev',
  'ad_avg_pause_duration_ms',
  'ad_pause_filler_words_per_min',
  'ad_long_pause_ratio',
  'cc_word_rate',
  'cc_fragment_rate',
  'cc_filler_words_rate',
]);

export const MEASURES: readonly MeasureDef[] = CATALOGUE.map((m) =>
  NON_NEGATIVE.has(m.key) ? { ...m, nonNegative: true } : m,
);

export const measuresOf = (analysis: AnalysisType): readonly MeasureDef[] =>
  MEASURES.filter((m) => m.analysis === analysis);
