/**
 * measures_wide.csv: one row per recording, one column per measure.
 */
import { MEASURES, type MeasureDef } from '../../../shared/api/measures';
import { ANALYSIS_LABEL } from '../../../shared/api/vocabulary';
import { ANALYSIS_PREFIX, type ExportRequest } from '../../../shared/export';
import { ANALYSIS_STATES } from '../../../shared/states';
import { col, type ColumnExtra, type ExportColumn } from '../column';
import { localMeasureColumns, qualityColumns } from '../local-columns';
import { type RecordingCtx, type WideCtx } from './contexts';
import { numOrNull, textOrNull, FLAGS_MEANING, selectedTypes, STATE_MEANING } from './columns';
import { type ExportFile, file, type LocalOption } from './file';
import { recordingColumns, provenanceColumns } from './recordings-file';

export const WIDE_FILE = 'measures_wide.csv';

const measureColumn = (m: MeasureDef): ExportColumn<WideCtx> => {
  const isCategory = m.valueType === 'category';
  const extra: ColumnExtra = { measure: m.key };
  if (m.unit !== null) extra.unit = m.unit;
  // No enum or range constraint: a value outside what the specification allows is kept as received and
  // flagged (docs/export.md, "Data quality"), so the declared constraints would be violated by kept data.
  const specified = m.allowed
    ? ` The specification allows ${m.allowed.join(', ')}.`
    : m.range
      ? ` The specification gives the range ${m.range[0]} to ${m.range[1]}.`
      : '';
  return col<WideCtx>(
    m.key,
    isCategory ? 'string' : m.valueType,
    `${ANALYSIS_LABEL[m.analysis]}: ${m.label}`,
    `${m.meaning}${m.unit ? ` (${m.unit})` : ''}. Empty when the service did not provide it (see ${ANALYSIS_PREFIX[m.analysis]}_state).${specified}${specified ? ' A value outside it is kept as received and named in `flags` (and data_quality.csv).' : ''}`,
    isCategory ? (c) => textOrNull(c.values[m.key]) : (c) => numOrNull(c.values[m.key]),
    // A category the spec leaves open (the Parkinson's band) is free text from the service: neutralised like any.
    { ...extra, neutralised: isCategory && !m.allowed },
  );
};

const flagSummaryColumns = <C extends RecordingCtx>(): ExportColumn<C>[] => [
  col<C>(
    'flag_count',
    'integer',
    'Data-quality flags',
    `Number of data-quality flags of this recording (its upload receipt, the receipt's comparison with what was sent, and its analyses). 0: nothing odd. ${FLAGS_MEANING}`,
    (c) => c.flags.length,
    { required: true },
  ),
  col<C>(
    'flags',
    'string',
    'Data-quality flags (summary)',
    `Each flag of this recording as \`code (where)\`, separated by \`; \`; empty when none. ${FLAGS_MEANING}`,
    (c) => (c.flags.length === 0 ? null : c.flags.map((f) => `${f.code} (${f.path})`).join('; ')),
    { neutralised: true },
  ),
];

export const wideFile = (
  req: Pick<ExportRequest, 'analyses' | 'timeZone'> & LocalOption,
): ExportFile<WideCtx> => {
  const columns: ExportColumn<WideCtx>[] = [
    ...recordingColumns<WideCtx>(req.timeZone),
    ...provenanceColumns<WideCtx>(req.timeZone),
    ...flagSummaryColumns<WideCtx>(),
  ];
  for (const t of selectedTypes(req)) {
    columns.push(
      col<WideCtx>(
        `${ANALYSIS_PREFIX[t]}_state`,
        'string',
        `${ANALYSIS_LABEL[t]}: state`,
        `${STATE_MEANING} Empty: this type was not requested for this recording, or the export's filters left it out.`,
        (c) => c.pairs.get(t)?.state,
        { enum: [...ANALYSIS_STATES] },
      ),
    );
    for (const m of MEASURES) if (m.analysis === t) columns.push(measureColumn(m));
  }
  if (req.localMeasures) columns.push(...qualityColumns<WideCtx>(), ...localMeasureColumns<WideCtx>());
  return file(
    WIDE_FILE,
    'data',
    'Measures, wide',
    'one recording',
    "One column per measure (catalogue order, grouped by analysis type, each group after its state column), after the recording's provenance. The same columns whatever the data: they depend only on the analysis types chosen.",
    ['recording'],
    columns,
  );
};
