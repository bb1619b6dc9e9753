/**
 * The measures a participant's timeline can chart: the service's catalogue (shared/api/measures.ts) and
 * the local acoustic measures (shared/acoustics/measures.ts) under their exports' wide names
 * `lm_<key>`, analysis "local". Both vocabularies stay where they are written; this only lists them
 * together, in the shape the charts read.
 */
import { localMeasureName, MEASURE_KEYS as LOCAL_KEYS, MEASURES as LOCAL } from './acoustics/measures';
import { MEASURES, type MeasureDef } from './api/measures';
import { ANALYSIS_TYPES, type AnalysisType } from './api/vocabulary';

export const LOCAL_ANALYSIS = 'local';
export const LOCAL_PREFIX = 'lm_';
export type ChartAnalysis = AnalysisType | typeof LOCAL_ANALYSIS;

/** A measure as a chart reads it: a catalogue measure, or a local one (analysis "local"). */
export type ChartMeasure = Omit<MeasureDef, 'analysis'> & { readonly analysis: ChartAnalysis };

export const LOCAL_CHART_MEASURES: readonly ChartMeasure[] = LOCAL_KEYS.map((k) => ({
  key: `${LOCAL_PREFIX}${k}`,
  analysis: LOCAL_ANALYSIS,
  field: k,
  label: localMeasureName(k),
  kind: 'indicator',
  valueType: k === 'pause_count' ? 'integer' : 'number',
  // Ratios and counts have no unit, as the catalogue's unitless measures (and the exports' codebook).
  unit: LOCAL[k].unit === 'ratio' || LOCAL[k].unit === 'count' ? null : LOCAL[k].unit,
  nonNegative: true,
  meaning: `Computed here from the audio: ${LOCAL[k].algorithm}`,
  path: {},
}));

/** Every chartable measure, service catalogue first, in catalogue order. */
export const CHART_MEASURES: readonly ChartMeasure[] = [...MEASURES, ...LOCAL_CHART_MEASURES];

const byKey = new Map(CHART_MEASURES.map((m) => [m.key, m]));
export const chartMeasure = (key: string): ChartMeasure | undefined => byKey.get(key);

/** The local measure key behind a timeline key (`lm_f0_mean_hz` → `f0_mean_hz`); null for a service key. */
export const localKeyOf = (timelineKey: string): string | null =>
  timelineKey.startsWith(LOCAL_PREFIX) && byKey.has(timelineKey)
    ? timelineKey.slice(LOCAL_PREFIX.length)
    : null;

/**
 * The measures a participant's page shows before the researcher picks: the first two of each of the
 * service's analysis types among those with values, in the catalogue's order.
 */
export const defaultChartMeasures = (available: readonly ChartMeasure[]): string[] =>
  ANALYSIS_TYPES.flatMap((type) =>
    available
      .filter((m) => m.analysis === type)
      .slice(0, 2)
      .map((m) => m.key),
  );
