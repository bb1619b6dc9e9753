/**
 * measures_long.csv: one row per recording and measure (tidy).
 */
import { MEASURE_KINDS, type MeasureDef } from '../../../shared/api/measures';
import { API_VERSIONS } from '../../../shared/api/vocabulary';
import { type ExportRequest } from '../../../shared/export';
import { ANALYSIS_STATES } from '../../../shared/states';
import { col, type ExportColumn, type Scope } from '../column';
import { LOCAL_ANALYSIS, LOCAL_MEASURE_DEFS, type LocalMeasureDef } from '../local-columns';
import { type LongCtx } from './contexts';
import {
  numOrNull,
  textOrNull,
  simulatedOf,
  SIMULATED_MEANING,
  flagCodesFor,
  FLAGS_MEANING,
  selectedTypes,
  selectedMeasures,
  STATE_MEANING,
} from './columns';
import { type ExportFile, file, type LocalOption } from './file';
import { recordingColumns } from './recordings-file';

export const LONG_FILE = 'measures_long.csv';

/** A long-form column with what its value depends on, so scoped-rows.ts encodes it once per recording, type or measure. */
export type LongColumn = ExportColumn<LongCtx> & { readonly scope: Scope };
const scoped = (scope: Scope, c: ExportColumn<LongCtx>): LongColumn => ({ ...c, scope });

export const longFile = (
  req: Pick<ExportRequest, 'analyses' | 'timeZone'> & LocalOption,
): ExportFile<LongCtx> & { readonly columns: readonly LongColumn[] } => {
  const measures: (MeasureDef | LocalMeasureDef)[] = [
    ...selectedMeasures(req),
    ...(req.localMeasures ? LOCAL_MEASURE_DEFS : []),
  ];
  return file(
    LONG_FILE,
    'data',
    'Measures, long (tidy)',
    'one recording and measure',
    'Every measure of every exported analysis type of every recording, including those the service did not provide (empty value, with analysis_state saying why). Numbers are in `value`, rating classes in `category`.',
    ['recording', 'measure'],
    [
      ...recordingColumns<LongCtx>(req.timeZone)
        .filter((c) => c.name !== 'utc_offset')
        .map((c) => scoped('recording', c)),
      scoped(
        'pair',
        col<LongCtx>(
          'analysis',
          'string',
          'Analysis type',
          `The analysis type the measure belongs to${req.localMeasures ? '; `local`: measured on this machine from the audio, not by the service (see "Local acoustic measures")' : ''}.`,
          (c) => c.pair.type,
          { enum: [...selectedTypes(req), ...(req.localMeasures ? [LOCAL_ANALYSIS] : [])], required: true },
        ),
      ),
      scoped(
        'pair',
        col<LongCtx>('analysis_state', 'string', 'Analysis state', STATE_MEANING, (c) => c.pair.state, {
          enum: [...ANALYSIS_STATES],
          required: true,
        }),
      ),
      scoped(
        'measure',
        col<LongCtx>(
          'measure',
          'string',
          'Measure',
          "The measure's key; the codebook lists each one's meaning, unit, allowed values and reference values.",
          (c) => c.measure.key,
          { enum: measures.map((m) => m.key), required: true },
        ),
      ),
      scoped(
        'measure',
        col<LongCtx>(
          'kind',
          'string',
          'Kind',
          'indicator: a measured acoustic or linguistic quantity; insight: a rating class; score and probability: model outputs.',
          (c) => c.measure.kind,
          { enum: [...MEASURE_KINDS], required: true },
        ),
      ),
      scoped(
        'row',
        col<LongCtx>(
          'value',
          'number',
          'Value',
          'The numeric value, in `unit`. Empty when the service did not provide it, or when the measure is a category (then see `category`). Never 0 for a missing value.',
          (c) => numOrNull(c.value),
        ),
      ),
      scoped(
        'row',
        col<LongCtx>(
          'category',
          'string',
          'Category',
          'The rating class for insight measures (allowed values per measure in the codebook). Empty for numeric measures and when not provided.',
          (c) => textOrNull(c.value),
          { neutralised: true },
        ),
      ),
      scoped(
        'row',
        col<LongCtx>(
          'flags',
          'string',
          'Data-quality flags',
          `The codes of the data-quality flags about this value, separated by spaces; empty when nothing is odd. A flagged value is kept as the service sent it (e.g. a score of 101 with \`score_out_of_range\`, a rating outside the listed classes with \`rating_not_in_enum\`); \`values_while_processing\` beside an empty value: the service sent a value with an analysis it had not completed (kept in answers_as_received.csv, not counted as a result). ${FLAGS_MEANING}`,
          (c) => flagCodesFor(c.flags, c.pair.type, c.measure.key),
        ),
      ),
      scoped(
        'measure',
        col<LongCtx>(
          'unit',
          'string',
          'Unit',
          'Unit of `value`; empty for unitless ratios, probabilities and categories.',
          (c) => c.measure.unit,
        ),
      ),
      scoped(
        'recording',
        col<LongCtx>(
          'api_version',
          'string',
          'API version',
          "Version of the service's interface the value came through.",
          (c) => c.r.apiVersion,
          { enum: [...API_VERSIONS] },
        ),
      ),
      scoped(
        'recording',
        col<LongCtx>('simulated', 'boolean', 'Simulated', SIMULATED_MEANING, (c) =>
          simulatedOf(c.r.resultSource),
        ),
      ),
    ],
  );
};
