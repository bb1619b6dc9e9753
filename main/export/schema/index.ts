/**
 * The column schema: every file an export writes, each column with its name, type, unit, allowed
 * values and meaning, and the function that reads its value. The CSV writers take their headers and
 * cells from here and the codebook, datapackage.json and the loader scripts take their descriptions
 * from here, so a column cannot be written without being described, nor described differently from
 * how it is written. Measure columns and values come from the catalogue (shared/api/measures.ts).
 */
import { type ExportForm, type ExportRequest, type FileDef } from '../../../shared/export';
import { completenessFile, visitsFile, type VisitRowCtx } from '../visit-files';
import { type CompletenessLine } from '../../../shared/visit-accounting';
import {
  type RecordingCtx,
  type WideCtx,
  type LongCtx,
  type SummaryCtx,
  type FlagCtx,
  type AnswerCtx,
  type LinkCtx,
} from './contexts';
import { type ExportFile, type LocalOption } from './file';
import { recordingsFile } from './recordings-file';
import { wideFile } from './wide-file';
import { type LongColumn, longFile } from './long-file';
import { summaryFile } from './summary-file';
import { dataQualityFile } from './data-quality-file';
import { answersFile } from './answers-file';
import { linkFile } from './accounts-file';

export type {
  AnswerCtx,
  FlagCtx,
  LinkCtx,
  LongCtx,
  MeasureValue,
  PairView,
  RecordingCtx,
  RecordingView,
  SummaryAt,
  SummaryCtx,
  SummaryPoint,
  WideCtx,
} from './contexts';
export { flagCodesFor, selectedMeasures, selectedTypes } from './columns';
export { RECORDINGS_FILE, type ExportFile, type LocalOption } from './file';
export { recordingsFile } from './recordings-file';
export { WIDE_FILE, wideFile } from './wide-file';
export { LONG_FILE, longFile, type LongColumn } from './long-file';
export { SUMMARY_FILE, summaryFile } from './summary-file';
export { DATA_QUALITY_FILE, dataQualityFile } from './data-quality-file';
export { ANSWERS_FILE, NOT_IN_SPECIFICATION, answersFile } from './answers-file';
export { LINK_FILE, linkFile } from './accounts-file';

/** The files a request writes, in the order the codebook lists them. */
export interface ExportFiles {
  readonly recordings: ExportFile<RecordingCtx>;
  readonly long: (ExportFile<LongCtx> & { readonly columns: readonly LongColumn[] }) | null;
  readonly wide: ExportFile<WideCtx> | null;
  readonly summary: ExportFile<SummaryCtx> | null;
  readonly link: ExportFile<LinkCtx> | null;
  readonly dataQuality: ExportFile<FlagCtx>;
  readonly answers: ExportFile<AnswerCtx>;
  readonly visits: ExportFile<VisitRowCtx>;
  readonly completeness: ExportFile<CompletenessLine>;
}

export const exportFiles = (
  req: Pick<ExportRequest, 'analyses' | 'timeZone' | 'forms' | 'includeLinkFile'> &
    Partial<Pick<ExportRequest, 'baselineSessions'>> &
    LocalOption,
): ExportFiles => {
  const has = (f: ExportForm) => req.forms.includes(f);
  return {
    recordings: recordingsFile(req.timeZone, req.localMeasures),
    long: has('long') ? longFile(req) : null,
    wide: has('wide') ? wideFile(req) : null,
    summary: has('summary') ? summaryFile(req) : null,
    link: req.includeLinkFile ? linkFile(req.timeZone) : null,
    dataQuality: dataQualityFile(),
    answers: answersFile(),
    visits: visitsFile(),
    completeness: completenessFile(),
  };
};

const describeFile = <C>(f: ExportFile<C>): FileDef => ({
  ...f,
  primaryKey: [...f.primaryKey],
  foreignKeys: f.foreignKeys.map((k) => ({
    ...k,
    fields: [...k.fields],
    referenceFields: [...k.referenceFields],
  })),
  // Only the serialisable description: the reader and the long form's scope stay in main/.
  columns: f.columns.map((c) => ({
    name: c.name,
    title: c.title,
    type: c.type,
    description: c.description,
    required: c.required,
    neutralised: c.neutralised,
    ...(c.timeFormat ? { timeFormat: c.timeFormat } : {}),
    ...(c.unit !== undefined ? { unit: c.unit } : {}),
    ...(c.enum ? { enum: [...c.enum] } : {}),
    ...(c.range ? { range: [c.range[0], c.range[1]] as [number, number] } : {}),
    ...(c.measure ? { measure: c.measure } : {}),
  })),
});

/** The serialisable description of every table a request writes (for the codebook, datapackage.json, loaders and the UI), data files first. */
export const tableDefs = (files: ExportFiles): FileDef[] => [
  ...(files.long ? [describeFile(files.long)] : []),
  ...(files.wide ? [describeFile(files.wide)] : []),
  ...(files.summary ? [describeFile(files.summary)] : []),
  describeFile(files.visits),
  describeFile(files.completeness),
  describeFile(files.recordings),
  describeFile(files.dataQuality),
  describeFile(files.answers),
  ...(files.link ? [describeFile(files.link)] : []),
];
