/**
 * participant_summary.csv: one row per participant, measure and API version, with the baseline and the change since.
 */
import { MEASURE_KINDS } from '../../../shared/api/measures';
import { API_VERSIONS } from '../../../shared/api/vocabulary';
import { DEFAULT_BASELINE_SESSIONS } from '../../../shared/baseline';
import {
  CHANGE_VERDICT_LABEL,
  CHANGE_VERDICTS,
  DEGENERATE_SD_FRACTION,
  MIN_COHORT_PARTICIPANTS,
  RELIABLE_RCI,
  SD_SOURCES,
} from '../../../shared/change';
import { RELIABILITY_SOURCES } from '../../../shared/reliability';
import { type ExportRequest } from '../../../shared/export';
import { col, type ExportColumn } from '../column';
import { type SummaryAt, type SummaryCtx } from './contexts';
import { SIMULATED_MEANING, selectedTypes, selectedMeasures } from './columns';
import { type ExportFile, file } from './file';

export const SUMMARY_FILE = 'participant_summary.csv';

type SummaryRequest = Pick<ExportRequest, 'analyses' | 'timeZone'> &
  Partial<Pick<ExportRequest, 'baselineSessions'>>;

/** What the summary's column descriptions are made of: the request, its measures and the words said of the baseline. */
interface SummaryWords {
  readonly req: SummaryRequest;
  readonly measures: ReturnType<typeof selectedMeasures>;
  readonly tz: string;
  readonly k: number;
  readonly first: string;
  readonly usable: string;
  readonly at: (
    name: 'baseline_from' | 'baseline_to',
    title: string,
    which: string,
    pick: (c: SummaryCtx) => SummaryAt | null,
  ) => ExportColumn<SummaryCtx>[];
}

/** Which participant, measure and API version a row is about, and how many values it has. */
const identityColumns = ({ req, measures }: SummaryWords): ExportColumn<SummaryCtx>[] => [
  col<SummaryCtx>('participant', 'string', 'Participant', "The participant's code.", (c) => c.participant, {
    required: true,
    neutralised: true,
  }),
  col<SummaryCtx>(
    'analysis',
    'string',
    'Analysis type',
    'The analysis type the measure belongs to.',
    (c) => c.measure.analysis,
    { enum: selectedTypes(req), required: true },
  ),
  col<SummaryCtx>(
    'measure',
    'string',
    'Measure',
    "The measure's key (see the codebook).",
    (c) => c.measure.key,
    { enum: measures.map((m) => m.key), required: true },
  ),
  col<SummaryCtx>(
    'kind',
    'string',
    'Kind',
    'indicator, insight, score or probability.',
    (c) => c.measure.kind,
    { enum: [...MEASURE_KINDS], required: true },
  ),
  col<SummaryCtx>(
    'unit',
    'string',
    'Unit',
    'Unit of baseline, baseline_sd, latest_value, change, sd_cohort_within, sd_used, rci_sd, s_diff, mean and sd (trend_per_week: this unit per week); empty for unitless ratios, probabilities and categories.',
    (c) => c.measure.unit,
  ),
  col<SummaryCtx>(
    'api_version',
    'string',
    'API version',
    "The version of the service's interface every value of this row came through; the row's statistics use values of this version only. Empty only on the row of a measure the participant has no value of (n = 0).",
    (c) => c.apiVersion,
    { enum: [...API_VERSIONS] },
  ),
  col<SummaryCtx>(
    'n',
    'integer',
    'Values',
    'Number of values the service provided for this participant and measure through this API version, in the recordings of this export. 0: none in any version (then every statistic is empty).',
    (c) => c.n,
    { required: true },
  ),
];

/** The baseline: its size, the recordings it spans, its mean and SD (or first category). */
const baselineColumns = ({ k, first, at }: SummaryWords): ExportColumn<SummaryCtx>[] => [
  col<SummaryCtx>(
    'baseline_n',
    'integer',
    'Baseline sessions',
    `Values present toward the baseline: min(k, n) with k = ${k}. The baseline exists only when baseline_n = ${k}. 0 when n = 0.`,
    (c) => c.baselineN,
    { required: true },
  ),
  ...at(
    'baseline_from',
    'Baseline from',
    'the first baseline value (the first value of this measure and API version)',
    (c) => c.baselineFrom,
  ),
  ...at(
    'baseline_to',
    'Baseline to',
    'the last baseline value (the baseline_n-th value by recording time)',
    (c) => c.baselineTo,
  ),
  col<SummaryCtx>(
    'baseline',
    'number',
    'Baseline (mean)',
    `The within-person baseline: the arithmetic mean of ${first}; in \`unit\`. The same definition as the baseline of the participant timeline in the app. Empty for categories and while fewer than ${k} values exist (no baseline yet).`,
    (c) => c.baseline,
  ),
  col<SummaryCtx>(
    'baseline_sd',
    'number',
    'Baseline SD',
    `Sample standard deviation (k − 1 denominator) of the ${k} baseline values, in \`unit\`: the participant's own SD. Empty without a complete baseline, when k = 1 and for categories.`,
    (c) => c.baselineSd,
  ),
  col<SummaryCtx>(
    'baseline_category',
    'string',
    'Baseline category',
    'Insight measures (categories): the first value by recording time, i.e. the rating at the first baseline session. Empty for numeric measures and when n = 0.',
    (c) => c.baselineCategory,
    { neutralised: true },
  ),
];

/** The latest value and the recording it came from. */
const latestColumns = ({ tz }: SummaryWords): ExportColumn<SummaryCtx>[] => [
  col<SummaryCtx>(
    'latest_recording',
    'integer',
    'Latest: recording',
    'The recording of the latest value of this measure and API version (the last by recording time, ties by recording number; joins recordings.csv). Empty when n = 0.',
    (c) => c.latest?.recording,
  ),
  col<SummaryCtx>(
    'latest_recorded_at_utc',
    'datetime',
    'Latest: recorded at (UTC)',
    'When the latest recording began, in UTC.',
    (c) => c.latest?.utc,
    { timeFormat: 'utc' },
  ),
  col<SummaryCtx>(
    'latest_recorded_at_local',
    'datetime',
    `Latest: recorded at (${tz})`,
    `When the latest recording began, as wall-clock time in ${tz}.`,
    (c) => c.latest?.local?.local,
    { timeFormat: 'local' },
  ),
  col<SummaryCtx>(
    'latest_value',
    'number',
    'Latest: value',
    'The latest numeric value, in `unit`. Empty for categories and when n = 0.',
    (c) => {
      const v = c.latest?.value;
      return typeof v === 'number' ? v : null;
    },
  ),
  col<SummaryCtx>(
    'latest_category',
    'string',
    'Latest: category',
    'The latest rating class (insight measures). Empty for numeric measures and when n = 0.',
    (c) => {
      const v = c.latest?.value;
      return typeof v === 'string' ? v : null;
    },
    { neutralised: true },
  ),
];

/** The change from the baseline: verdict, size, the SD it is scaled by, the reliable change index, the trend. */
const changeColumns = ({ k, usable }: SummaryWords): ExportColumn<SummaryCtx>[] => [
  col<SummaryCtx>(
    'change_verdict',
    'string',
    'Change: verdict',
    `What can be said of the latest value's change (numeric measures): ${CHANGE_VERDICTS.map((v) => `${v}: ${CHANGE_VERDICT_LABEL[v]}`).join('; ')}. Empty for categories and when n = 0.`,
    (c) => c.change?.verdict,
    { enum: [...CHANGE_VERDICTS] },
  ),
  col<SummaryCtx>(
    'change',
    'number',
    'Change from baseline',
    `latest_value − baseline (the baseline mean), in \`unit\`; the timeline's change from baseline. Only when the baseline is complete and the latest value came after it (n > ${k}); empty otherwise and for categories.`,
    (c) => c.change?.change,
  ),
  col<SummaryCtx>(
    'sd_cohort_within',
    'number',
    'Cohort pooled within-person SD',
    `The SD floor: √(Σ over participants Σ (x − their baseline mean)² / Σ (k − 1)) over the baseline values of every participant of the study with a complete baseline of this measure and API version, in \`unit\`. Empty with fewer than ${MIN_COHORT_PARTICIPANTS} such participants or k = 1.`,
    (c) => c.change?.sdCohortWithin,
  ),
  col<SummaryCtx>(
    'sd_used',
    'number',
    'SD used for change_in_sd',
    `The larger of baseline_sd and sd_cohort_within, taking only those that are ${usable}. Empty when neither is usable (then there is no change_in_sd) or change is empty.`,
    (c) => c.change?.sdUsed,
  ),
  col<SummaryCtx>(
    'sd_source',
    'string',
    'Which SD was used',
    'participant: baseline_sd; cohort: sd_cohort_within (the floor applied). Empty when sd_used is empty.',
    (c) => c.change?.sdSource,
    { enum: [...SD_SOURCES] },
  ),
  col<SummaryCtx>(
    'change_in_sd',
    'number',
    'Change in SDs',
    'change / sd_used. Never over a degenerate SD: empty when sd_used is empty.',
    (c) => c.change?.changeInSd,
  ),
  col<SummaryCtx>(
    'reliability',
    'number',
    'Test-retest reliability (r)',
    "The measure's test-retest reliability used for the reliable change index: the study's setting, else the documented default (docs/change.md, from the research notes' section 10.2). Empty for measures without a published reliability (service scores and probabilities): they get a trend, not a verdict.",
    (c) => c.change?.reliability,
  ),
  col<SummaryCtx>(
    'reliability_source',
    'string',
    'Where the reliability came from',
    'default: the documented default; study: set for this study (voicescope reliability).',
    (c) => c.change?.reliabilitySource,
    { enum: [...RELIABILITY_SOURCES] },
  ),
  col<SummaryCtx>(
    'rci_sd',
    'number',
    'RCI: SD₁ (cohort baseline SD)',
    `Sample SD (N − 1 denominator) of all baseline values together of every participant of the study with a complete baseline of this measure and API version, in \`unit\`. Empty with fewer than ${MIN_COHORT_PARTICIPANTS} such participants.`,
    (c) => c.change?.rciSd,
  ),
  col<SummaryCtx>(
    's_diff',
    'number',
    'RCI: S_diff',
    '√2 · SE with SE = rci_sd · √(1 − reliability) (Jacobson & Truax 1991), in `unit`. Empty when rci is empty.',
    (c) => c.change?.sDiff,
  ),
  col<SummaryCtx>(
    'rci',
    'number',
    'Reliable change index',
    'change / s_diff. Empty when change, reliability or a usable rci_sd is missing.',
    (c) => c.change?.rci,
  ),
  col<SummaryCtx>(
    'reliable_change',
    'boolean',
    'Reliable change',
    `true when |rci| ≥ ${RELIABLE_RCI} (two-sided p < .05), false when rci is below; empty when there is no rci.`,
    (c) => (c.change?.rci == null ? null : Math.abs(c.change.rci) >= RELIABLE_RCI),
  ),
  col<SummaryCtx>(
    'trend_per_week',
    'number',
    'Trend per week',
    'Least-squares slope of all n values over recording time, in `unit` per week (7 × 24 h). Empty with fewer than 3 values, all at one moment, and for categories.',
    (c) => c.change?.trendPerWeek,
  ),
];

/** Over all n values: mean and SD, and whether any was simulated. */
const allValuesColumns = (): ExportColumn<SummaryCtx>[] => [
  col<SummaryCtx>(
    'mean',
    'number',
    'Mean',
    'Mean of all n values of this measure and API version (not only the baseline), in `unit`. Empty for categories and when n = 0.',
    (c) => c.mean,
  ),
  col<SummaryCtx>(
    'sd',
    'number',
    'SD',
    'Sample standard deviation (n − 1 denominator) of all n values, in `unit`. Empty when n < 2 and for categories.',
    (c) => c.sd,
  ),
  col<SummaryCtx>(
    'simulated',
    'boolean',
    'Simulated',
    `true when at least one of the n values is simulated. ${SIMULATED_MEANING}`,
    (c) => c.simulated,
    { required: true },
  ),
];

export const summaryFile = (req: SummaryRequest): ExportFile<SummaryCtx> => {
  const measures = selectedMeasures(req);
  const tz = req.timeZone;
  const k = req.baselineSessions ?? DEFAULT_BASELINE_SESSIONS;
  const first = `the first ${k} value${k === 1 ? '' : 's'} of this participant, measure and API version by recording time, ties broken by recording number`;
  const usable = `usable: present and above ${DEGENERATE_SD_FRACTION} × max(1, |mean|), i.e. not zero up to rounding`;
  const at = (
    name: 'baseline_from' | 'baseline_to',
    title: string,
    which: string,
    pick: (c: SummaryCtx) => SummaryAt | null,
  ): ExportColumn<SummaryCtx>[] => [
    col<SummaryCtx>(
      `${name}_utc`,
      'datetime',
      `${title} (UTC)`,
      `When the recording of ${which} began, in UTC. Empty when n = 0.`,
      (c) => pick(c)?.utc,
      { timeFormat: 'utc' },
    ),
    col<SummaryCtx>(
      `${name}_local`,
      'datetime',
      `${title} (${tz})`,
      `When the recording of ${which} began, as wall-clock time in ${tz}. Empty when n = 0.`,
      (c) => pick(c)?.local?.local,
      { timeFormat: 'local' },
    ),
  ];
  const words: SummaryWords = { req, measures, tz, k, first, usable, at };
  return file(
    SUMMARY_FILE,
    'data',
    'Per-participant summary',
    'one participant, measure and API version',
    `For each participant and each measure of the exported analysis types, one row per API version the participant has values in: v1.2 and v1.3 results come from different models and field definitions, so they are never mixed (a participant with values in both has two rows). Over the recordings of this export: the baseline, i.e. the mean and sample standard deviation of ${first} (k = ${k}), given only once all k are present (with fewer: no baseline yet, and no figure); the latest value; once a value after the baseline exists, its change from the baseline mean, in SDs over the floored SD (the larger usable of the participant's baseline SD and the cohort's pooled within-person SD), and the Jacobson-Truax reliable change index with the measure's test-retest reliability; the least-squares trend per week; the mean and SD of all n values. The cohort reference (sd_cohort_within, rci_sd) is taken over every participant of the study with a complete baseline of this measure and API version, whatever this export selects. This is exactly what the participant timeline in the Voicescope app shows for the same k and reliabilities (one definition in the code, shared/change.ts; docs/change.md): they agree whenever this export holds all of the participant's sessions. Only values the service provided count. A participant with no value of a measure in any version has a single row with n = 0, an empty api_version and empty statistics; api_version is empty on no other row.`,
    ['participant', 'measure', 'api_version'],
    [
      ...identityColumns(words),
      ...baselineColumns(words),
      ...latestColumns(words),
      ...changeColumns(words),
      ...allValuesColumns(),
    ],
    false,
  );
};
