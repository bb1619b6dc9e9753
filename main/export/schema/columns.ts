/**
 * What several files' columns share: reading a value as a number or text, the meanings said in more than one file, the flags of a measure, and the analysis types and measures a request selects.
 */
import { MEASURES, type MeasureDef } from '../../../shared/api/measures';
import { ANALYSIS_TYPES, type AnalysisType } from '../../../shared/api/vocabulary';
import { type ExportRequest } from '../../../shared/export';
import { type StoredFlag } from '../../db/repos/data-quality.repo';
import { recordingProvenance } from '../../db/repos/recording-columns';
import { type MeasureValue } from './contexts';

export const numOrNull = (v: MeasureValue | undefined): number | null => (typeof v === 'number' ? v : null);
export const textOrNull = (v: MeasureValue | undefined): string | null => (typeof v === 'string' ? v : null);
export const simulatedOf = (source: string | null): boolean | null =>
  source === null ? null : source === 'simulated';
export const provenanceText = (json: string | null): string | null =>
  recordingProvenance
    .decodeOrNull(json)
    ?.map((n) => n.note)
    .join(' | ') || null;

export const SIMULATED_MEANING =
  'true: the values of this recording were produced by the Voicescope sandbox, a simulation of the service, and are not measurements; false: returned by the real service. Never analyse simulated values as data.';

/** The codes of the flags about one measure of one analysis type, space-separated; empty when none. */
export const flagCodesFor = (flags: readonly StoredFlag[], type: string, measure: string): string | null => {
  if (flags.length === 0) return null;
  const codes = new Set<string>();
  for (const f of flags)
    if ((f.analysisType === type || f.analysisType === null) && f.measures.includes(measure))
      codes.add(f.code);
  return codes.size === 0 ? null : [...codes].join(' ');
};

export const FLAGS_MEANING =
  'Data-quality flags: what the service sent that departs from its specification (kept as received). The codebook lists every code with its meaning; data_quality.csv has one row per flag with what was received and what was expected.';

export const selectedTypes = (req: Pick<ExportRequest, 'analyses'>): AnalysisType[] =>
  ANALYSIS_TYPES.filter((t) => req.analyses === undefined || req.analyses.includes(t));
export const selectedMeasures = (req: Pick<ExportRequest, 'analyses'>): MeasureDef[] => {
  const types = selectedTypes(req);
  return MEASURES.filter((m) => types.includes(m.analysis));
};

export const STATE_MEANING =
  'State of this analysis type: completed (values present unless the service omitted one), error (the analysis failed: no values), processing or awaiting_upload (no result yet), timed_out (no result within five minutes; still re-checked), unanswered (no result after the timeout and a day of re-checks; checked again only when the researcher asks), not_requested (the service says it was not requested).';
