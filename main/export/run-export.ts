/**
 * The export's one entry point, for the app's IPC handler, the command line and scripts alike:
 * `runExport(source, request, options)` checks the request, reads a consistent snapshot of the study
 * (`Store.snapshot`: its own read-only connection; the engine may keep writing meanwhile), streams every chosen
 * form plus recordings.csv in one pass over the recordings, writes the codebook, datapackage.json,
 * the loaders and SHA256SUMS into a hidden temporary folder and renames it into place when all is
 * written. A failure or a cancellation leaves nothing behind. Errors are values (ExportProblem).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ANALYSIS_TYPES, type AnalysisType } from '../../shared/api/vocabulary';
import type { MeasureDef } from '../../shared/api/measures';
import {
  EXPORT_EXTRAS,
  EXPORT_FORMS,
  EXTRA_FILE,
  ExportRequestSchema,
  type ExportProblem,
  type ExportProgress,
  type ExportReport,
  type ExportRequest,
  type WrittenFile,
} from '../../shared/export';
import { err, ok, type Result } from '../../shared/result';
import { ANALYSIS_STATES } from '../../shared/states';
import { storeSchemaVersion } from '../db/store/migrate-store';
import { appendAuditAlone } from '../db/repos/audit.repo';
import { codebookMarkdown } from './codebook';
import { CsvSink, openWriteFile, TextSink, type OpenWrite } from './csv-sink';
import { dataPackageJson } from './datapackage';
import { settingsRows, simulatedWarning, type ExportDescription } from './describe';
import { loadDo } from './load-do';
import { loadPy, loadR } from './loaders';
import { loadSps } from './load-sps';
import { ExportCancelled, fileProblem, problem } from './problems';
import {
  exportFiles,
  selectedMeasures,
  type ExportFiles,
  tableDefs,
  type AnswerCtx,
  type FlagCtx,
  type LinkCtx,
  type LongCtx,
  type PairView,
  type RecordingCtx,
  type RecordingView,
  type WideCtx,
} from './schema';
import {
  accountOf,
  countSelection,
  findStudy,
  selectedRecordings,
  type SelectedRecording,
} from '../db/repos/export-selection.repo';
import type { Queryable, Store } from '../db/store/types';
import {
  measurementsOfRecordings,
  studyHasMeasurements,
  type StoredMeasurement,
} from '../db/repos/local-measures.repo';
import { LOCAL_MEASURE_DEFS, localPair } from './local-columns';
import { fileNameOf, type ExportColumn } from './column';
import { createScopedEncoder } from './scoped-rows';
import { statTable } from './stat-variables';
import { ParticipantSummary, type SummaryReference } from './summary';
import { TextWidths } from './text-widths';
import { Workbook } from './workbook';
import { changeSettings, CohortReferences } from '../change/change-reference';
import { boundToUtcMs, utcCell, utcSelection, zonedClock } from './time';
import { completenessOf, type VisitRow } from '../../shared/visit-accounting';
import { recordedAfterWithdrawal } from '../../shared/withdrawal';
import { participantLedgers, type LedgerRecording, type ParticipantLedgers } from '../design/visit-ledger';
import { NO_VISIT, type VisitCells, type VisitRowCtx } from './visit-files';
import { refusedLinkFile, withheldColumns, withoutWithheld, type WithheldColumn } from './withheld';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface RunExportOptions {
  /** The folder the export folder is created in. */
  readonly outDir: string;
  /** Name of the export folder; default `<study>-export-<YYYYMMDD-HHMMSS>` (UTC). It must not exist yet. */
  readonly folderName?: string;
  /** Written into the codebook and datapackage.json. */
  readonly appVersion: string;
  readonly now?: () => number;
  /** Called at most every `progressIntervalMs` while writing, and at each stage. */
  readonly onProgress?: (p: ExportProgress) => void;
  readonly progressIntervalMs?: number;
  readonly signal?: AbortSignal;
  /** How files are opened; tests pass one that fails like a full disk. */
  readonly openWrite?: OpenWrite;
  /** Rows per sheet of the workbook, the header included, before a table continues on the next (tests make it small). */
  readonly sheetRows?: number;
}

const slug = (name: string, id: number): string => {
  const s = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return s || `study-${id}`;
};
const stamp = (ms: number): string =>
  new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

/** Lists in a fixed order and without repeats, so the settings printed in the codebook do not depend on how the request was built. */
const normalise = (r: ExportRequest): ExportRequest => {
  const uniq = <T extends string>(xs: readonly T[] | undefined, order?: readonly T[]): T[] | undefined =>
    xs === undefined ? undefined : order ? order.filter((x) => xs.includes(x)) : [...new Set(xs)].sort();
  const { participants, sessions, analyses, states, ...rest } = r;
  const out: ExportRequest = {
    ...rest,
    forms: EXPORT_FORMS.filter((f) => r.forms.includes(f)),
    extras: EXPORT_EXTRAS.filter((x) => r.extras.includes(x)),
  };
  const p = uniq(participants),
    s = uniq(sessions),
    a = uniq<AnalysisType>(analyses, ANALYSIS_TYPES),
    st = uniq(states, ANALYSIS_STATES);
  return {
    ...out,
    ...(p ? { participants: p } : {}),
    ...(s ? { sessions: s } : {}),
    ...(a ? { analyses: a } : {}),
    ...(st ? { states: st } : {}),
  };
};

const emptySelectionMessage = (r: ExportRequest): string => {
  const parts: string[] = [];
  if (r.participants) parts.push(`participants ${r.participants.join(', ')}`);
  if (r.from ?? r.to)
    parts.push(
      `recorded ${r.from ? `from ${r.from}` : ''}${r.from && r.to ? ' ' : ''}${r.to ? `to ${r.to}` : ''}`,
    );
  if (r.sessions) parts.push(`sessions ${r.sessions.map((s) => s || '(none)').join(', ')}`);
  if (r.analyses) parts.push(`analysis types ${r.analyses.join(', ')}`);
  if (r.states) parts.push(`states ${r.states.join(', ')}`);
  return `No recordings of this study match the selection${parts.length ? ` (${parts.join('; ')})` : ''}; nothing was written.`;
};

/**
 * Each recording's visit cells, from its participant's entry of the visit ledger. The pass comes
 * participant by participant: `enter` reads a participant's entry as the pass reaches them, so one
 * participant's entry is held at a time, and `cellsOf` answers for their recordings.
 */
const visitCellsOf = (ledger: ParticipantLedgers | null) => {
  const index = new Map(ledger?.design.visits.map((v) => [v.id, v]) ?? []);
  const statusOf = new Map(ledger?.participants.map((p) => [p.id, p]) ?? []);
  let entry: Awaited<ReturnType<ParticipantLedgers['entryOf']>> | null = null;
  let byRecording = new Map<number, LedgerRecording>();
  const enter = async (participantId: number): Promise<void> => {
    const p = statusOf.get(participantId);
    entry = ledger && p ? await ledger.entryOf(p) : null;
    byRecording = new Map(entry?.participant.recordings.map((r) => [r.id, r]) ?? []);
  };
  const cellsOf = (recordingId: number): VisitCells => {
    const r = byRecording.get(recordingId);
    if (!r || !entry) return NO_VISIT;
    const a = r.assignment;
    const v = a.visitId === null ? undefined : index.get(a.visitId);
    return {
      name: v?.name ?? null,
      index: v?.position ?? null,
      daysSinceBaseline: a.daysSinceBaseline,
      source: a.source,
      afterWithdrawal: recordedAfterWithdrawal(r.date, entry.participant),
    };
  };
  return { enter, cellsOf };
};

/**
 * visits.csv and completeness.csv: every expected visit of the export's participants (all of the
 * study's, or those the request names), whatever the date, session or state filters. Read participant
 * by participant; only the rows (one per expected visit) are kept, for the completeness table.
 */
const writeVisitFiles = async (
  ledger: ParticipantLedgers | null,
  codes: readonly string[] | undefined,
  visitsSink: CsvSink<VisitRowCtx>,
  completenessSink: CsvSink<ReturnType<typeof completenessOf>[number]>,
): Promise<void> => {
  // Without a visit schedule nothing is expected: both files are their header alone, and reading every
  // participant's recordings again for them would only cost time and memory.
  if (!ledger || ledger.design.visits.length === 0) return;
  const wanted = codes ? new Set(codes) : null;
  const rows: VisitRow[] = [];
  for (const status of ledger.participants) {
    if (wanted !== null && !wanted.has(status.code)) continue;
    const { participant: p, rows: mine } = await ledger.entryOf(status);
    const sourceOf = new Map(p.recordings.map((r) => [r.id, r.sourcePath]));
    for (const row of mine) {
      const source = row.recording === null ? undefined : sourceOf.get(row.recording);
      visitsSink.row({
        row,
        status: p.status,
        baseline: p.baseline?.date ?? null,
        baselineSource: p.baseline?.source ?? null,
        fileName: source === undefined ? null : fileNameOf(source),
      });
    }
    rows.push(...mine);
  }
  for (const line of completenessOf(ledger.design.visits, rows)) completenessSink.row(line);
};

/** The request parsed and put in a fixed order, refused when its date range ends before it starts. */
const checkRequest = (input: unknown): Result<ExportRequest, ExportProblem> => {
  const parsed = ExportRequestSchema.safeParse(input);
  if (!parsed.success) {
    const what = parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
    return err(
      problem(
        'invalid_request',
        `The export settings are not valid (${what}).`,
        'Correct the settings and export again.',
      ),
    );
  }
  const req = normalise(parsed.data);
  if (
    req.from !== undefined &&
    req.to !== undefined &&
    boundToUtcMs(req.from, req.timeZone, 'from') > boundToUtcMs(req.to, req.timeZone, 'to')
  ) {
    return err(
      problem(
        'invalid_request',
        `The date range ends (${req.to}) before it starts (${req.from}).`,
        'Swap the dates.',
      ),
    );
  }
  return ok(req);
};

const unknownStudy = (studyId: number): ExportProblem =>
  problem(
    'unknown_study',
    `There is no study ${studyId} in this workspace.`,
    'Choose a study from the list (voicescope study list).',
  );

/**
 * The baseline's size and what the change statistics compare with. k: as asked, else the study's
 * setting; the cohort reference is the study's (every participant), whatever is selected.
 */
const changeReferenceOf = async (q: Queryable, req: ExportRequest) => {
  const change = await changeSettings(q, req.studyId);
  const baselineSessions = req.baselineSessions ?? change.baselineSessions;
  const cohort = req.forms.includes('summary')
    ? await CohortReferences.of(q, req.studyId, baselineSessions)
    : null;
  const reference: SummaryReference = {
    cohort: (key: string, version: string) => cohort!.get(key, version),
    reliabilities: change.reliabilities,
  };
  return { baselineSessions, reference };
};

/** The hidden folder the export is written into, beside the folder it becomes once all is written. */
const makePartialFolder = async (
  outDir: string,
  folderName: string,
): Promise<Result<string, ExportProblem>> => {
  try {
    if (!(await stat(outDir)).isDirectory())
      return err(problem('folder_unwritable', `${outDir} is not a folder.`, 'Choose a folder.'));
  } catch (e) {
    return err(fileProblem(e, outDir));
  }
  if (
    await stat(join(outDir, folderName)).then(
      () => true,
      () => false,
    )
  )
    return err(fileProblem(Object.assign(new Error('exists'), { code: 'EEXIST' }), outDir));
  try {
    return ok(await mkdtemp(join(outDir, `.${folderName}.partial-`)));
  } catch (e) {
    return err(fileProblem(e, outDir));
  }
};

/**
 * One CSV sink per file the request writes, each registered in `opened` as soon as it is open (so a
 * failure abandons every one). SPSS declares each text column's width before reading: noted while
 * writing, only when load.sps is asked for.
 */
const openCsvSinks = (
  files: ExportFiles,
  dir: string,
  req: ExportRequest,
  open: OpenWrite,
  opened: TextSink[],
  book: Workbook | null,
) => {
  const bom = req.preset === 'excel';
  const widths = new Map<string, TextWidths>();
  const widthsOf = (f: { name: string; columns: readonly unknown[] }): TextWidths | null => {
    if (!req.extras.includes('spss')) return null;
    const w = new TextWidths(f.columns.length);
    widths.set(f.name, w);
    return w;
  };
  const sink = <C>(f: { name: string; columns: readonly ExportColumn<C>[] }): CsvSink<C> => {
    const text = new TextSink(f.name, open(join(dir, f.name)));
    opened.push(text);
    return new CsvSink(text, f.columns, bom, widthsOf(f), book?.sheet(f.name, f.columns) ?? null);
  };
  const recordings = sink(files.recordings);
  const long = files.long ? sink(files.long) : null;
  const wide = files.wide ? sink(files.wide) : null;
  const summary = files.summary ? sink(files.summary) : null;
  const link = files.link ? sink(files.link) : null;
  const flags = sink(files.dataQuality);
  const answers = sink(files.answers);
  const visits = sink(files.visits);
  const completeness = sink(files.completeness);
  /** In the order the files are listed (data files first). */
  const inOrder = [
    [long, files.long],
    [wide, files.wide],
    [summary, files.summary],
    [visits, files.visits],
    [completeness, files.completeness],
    [recordings, files.recordings],
    [flags, files.dataQuality],
    [answers, files.answers],
    [link, files.link],
  ] as const;
  const all = inOrder.map(([s]) => s).filter((s) => s !== null);
  return {
    widths,
    recordings,
    long,
    wide,
    summary,
    link,
    flags,
    answers,
    visits,
    completeness,
    inOrder,
    all,
  };
};
type CsvSinks = ReturnType<typeof openCsvSinks>;

/** What one pass over the recordings counts, for the progress, the codebook, the audit and the report. */
interface Tally {
  values: number;
  missing: number;
  pairs: number;
  simulatedRecordings: number;
  done: number;
  participants: number;
  readonly versions: Set<string>;
}

/** Everything the pass over the recordings reads from, worked out once before it. */
interface Pass {
  /** The snapshot the export reads. */
  readonly q: Queryable;
  readonly req: ExportRequest;
  readonly sinks: CsvSinks;
  readonly longRows: ReturnType<typeof createScopedEncoder<LongCtx>> | null;
  readonly clock: ReturnType<typeof zonedClock>;
  readonly measures: readonly MeasureDef[];
  readonly measuresOf: ReadonlyMap<AnalysisType, readonly MeasureDef[]>;
  /** Whether the study has local acoustic measures (then each recording's is read beside it). */
  readonly localMeasures: boolean;
  readonly visits: ReturnType<typeof visitCellsOf>;
  readonly reference: SummaryReference;
  readonly tally: Tally;
  /** One mutable context for the long form, refilled for each row: no allocation per long-form row. */
  readonly lc: { -readonly [K in keyof LongCtx]: LongCtx[K] };
}

/** A new participant: its summary (when the summary is written) and its row of the accounts file. */
const startParticipant = async (pass: Pass, r: RecordingView) => {
  pass.tally.participants++;
  if (pass.sinks.link) {
    const a = await accountOf(pass.q, r.participantId);
    const createdUtc = utcCell(a.createdAt);
    pass.sinks.link.row({
      participant: r.participant,
      accountId: a.accountId,
      createdUtc,
      created: pass.clock(createdUtc),
    } satisfies LinkCtx);
  }
  return {
    id: r.participantId,
    summary: pass.sinks.summary
      ? new ParticipantSummary(r.participant, pass.measures, pass.req.baselineSessions, pass.reference)
      : null,
  };
};
type Participant = Awaited<ReturnType<typeof startParticipant>>;

const finishParticipant = (pass: Pass, current: Participant | null) => {
  const sink = pass.sinks.summary;
  if (current?.summary && sink) for (const row of current.summary.rows()) sink.row(row);
};

/** A recording with its times formatted once, for every file's row of it. */
const recordingCtxOf = (
  pass: Pass,
  rec: SelectedRecording,
  local: StoredMeasurement | null,
): RecordingCtx => {
  const r = rec.r;
  const recordedUtc = utcCell(r.recordedAt);
  const uploadedUtc = utcCell(r.uploadedAt);
  return {
    r,
    recordedUtc,
    recorded: pass.clock(recordedUtc),
    uploadedUtc,
    uploaded: pass.clock(uploadedUtc),
    flags: rec.flags,
    local,
    visit: pass.visits.cellsOf(r.id),
  };
};

/** The rows of one recording in recordings.csv, data_quality.csv, answers_as_received.csv and the wide file. */
const writeRecordingRows = (pass: Pass, rec: SelectedRecording, ctx: RecordingCtx) => {
  const { sinks, tally } = pass;
  const r = rec.r;
  if (r.resultSource === 'simulated') tally.simulatedRecordings++;
  if (r.apiVersion !== null) tally.versions.add(r.apiVersion);
  sinks.recordings.row(ctx);
  rec.flags.forEach((flag, i) => sinks.flags.row({ recording: r.id, n: i + 1, flag } satisfies FlagCtx));
  for (const answer of rec.answers) sinks.answers.row({ answer } satisfies AnswerCtx);
  if (sinks.wide)
    sinks.wide.row({
      ...ctx,
      pairs: new Map<AnalysisType, PairView>(rec.pairs.map((p) => [p.type, p])),
      values: rec.values,
    } satisfies WideCtx);
};

/**
 * Every measure of every analysis of one recording: counted, added to its participant's summary and
 * written in the long form. The summary counts what the timeline counts: values of uploaded recordings
 * not excluded from analysis, by their API version.
 */
const writeMeasureRows = (pass: Pass, rec: SelectedRecording, ctx: RecordingCtx, current: Participant) => {
  const { lc, longRows, tally } = pass;
  const long = pass.sinks.long;
  const r = rec.r;
  const simulated = r.resultSource === 'simulated';
  const at = { recording: r.id, recordedAt: r.recordedAt, utc: ctx.recordedUtc, local: ctx.recorded };
  const summary = r.uploadState === 'uploaded' && r.excludedAt === null ? current.summary : null;
  Object.assign(lc, ctx);
  if (long && longRows) long.scope(longRows, 'recording', lc);
  for (const pair of rec.pairs) {
    tally.pairs++;
    lc.pair = pair;
    if (long && longRows) long.scope(longRows, 'pair', lc);
    for (const m of pass.measuresOf.get(pair.type) ?? []) {
      const v = rec.values[m.key];
      if (v === undefined) tally.missing++;
      else {
        tally.values++;
        summary?.add(m.key, v, at, simulated, r.apiVersion);
      }
      if (long && longRows) {
        lc.measure = m;
        lc.value = v;
        long.scopedRow(longRows, lc, m.key);
      }
    }
  }
};

/** The recording's local acoustic measures in the long form, after the service's (lc holds the recording). */
const writeLocalMeasureRows = (pass: Pass, ctx: RecordingCtx) => {
  const { lc, longRows } = pass;
  const long = pass.sinks.long;
  if (!ctx.local || !long || !longRows) return;
  lc.pair = localPair(ctx.local);
  long.scope(longRows, 'pair', lc);
  for (const d of LOCAL_MEASURE_DEFS) {
    lc.measure = d;
    lc.value = ctx.local.measures[d.key] ?? undefined;
    long.scopedRow(longRows, lc, d.key);
  }
};

/** Recordings whose local measurements are read in one go. */
const LOCAL_BLOCK = 64;

/**
 * The selected recordings, each with its local measurement (null: none), read a block of recordings at
 * a time beside them: never a whole study's measurements at once.
 */
async function* withLocalMeasurements(
  pass: Pass,
  recordings: AsyncIterable<SelectedRecording>,
): AsyncGenerator<readonly [SelectedRecording, StoredMeasurement | null], void, undefined> {
  if (!pass.localMeasures) {
    for await (const rec of recordings) yield [rec, null];
    return;
  }
  let block: SelectedRecording[] = [];
  const complete = async () => {
    const local = await measurementsOfRecordings(
      pass.q,
      block.map((rec) => rec.r.id),
    );
    return block.map((rec) => [rec, local.get(rec.r.id) ?? null] as const);
  };
  for await (const rec of recordings) {
    block.push(rec);
    if (block.length === LOCAL_BLOCK) {
      yield* await complete();
      block = [];
    }
  }
  if (block.length > 0) yield* await complete();
}

/** What the pass waits for when it is behind: the CSV files and the workbook's sheets. */
interface Paced {
  readonly blocked: boolean;
  ready(): Promise<void>;
}

/**
 * How often the pass gives the event loop a turn, in ms. zlib deflates the workbook's sheets on Node's
 * thread pool, but it is handed its next chunk only when the loop runs the callback of the one before:
 * with a turn every 20 ms the pass waited on zlib about 1 s of every 8 (20,000 recordings), with one
 * every 2 ms about 0.3 s (0.08 s with four chunks queued, workbook.ts). A turn costs some microseconds,
 * and the clock is read after every recording, which costs less.
 */
const TURN_MS = 2;

/**
 * The one pass over the selected recordings, writing every CSV row (and sheet row). It waits when a stream asks it to,
 * reports progress at most every `progressEvery` ms and gives the event loop a turn every `TURN_MS`, so
 * the app's main process stays responsive, zlib is kept busy and a cancel gets through.
 */
const streamRecordings = async (
  pass: Pass,
  paced: readonly Paced[],
  signal: AbortSignal | undefined,
  progressEvery: number,
  progress: (stage: ExportProgress['stage']) => void,
) => {
  let current: Participant | null = null;
  let lastProgress = performance.now(),
    lastYield = lastProgress;
  for await (const [rec, local] of withLocalMeasurements(
    pass,
    selectedRecordings(pass.q, utcSelection(pass.req)),
  )) {
    if (signal?.aborted) throw new ExportCancelled();
    if (current?.id !== rec.r.participantId) {
      finishParticipant(pass, current);
      current = await startParticipant(pass, rec.r);
      await pass.visits.enter(rec.r.participantId);
    }
    const ctx = recordingCtxOf(pass, rec, local);
    writeRecordingRows(pass, rec, ctx);
    writeMeasureRows(pass, rec, ctx, current);
    writeLocalMeasureRows(pass, ctx);
    pass.tally.done++;
    if (paced.some((s) => s.blocked)) for (const s of paced) await s.ready();
    const t = performance.now();
    if (t - lastProgress >= progressEvery) {
      lastProgress = t;
      progress('writing');
    }
    if (t - lastYield >= TURN_MS) {
      await nextTurn();
      lastYield = performance.now();
    }
  }
  finishParticipant(pass, current);
};

const newTally = (): Tally => ({
  values: 0,
  missing: 0,
  pairs: 0,
  simulatedRecordings: 0,
  done: 0,
  participants: 0,
  versions: new Set<string>(),
});

/** Reports a stage with how far the pass has come: recordings, rows and bytes written. */
const progressReporter =
  (
    onProgress: RunExportOptions['onProgress'],
    tally: Tally,
    recordingsTotal: number,
    sinks: CsvSinks,
    text: readonly TextSink[],
  ) =>
  (stage: ExportProgress['stage']) =>
    onProgress?.({
      stage,
      recordingsDone: tally.done,
      recordingsTotal,
      rowsWritten: sinks.all.reduce((n, s) => n + s.rows, 0),
      bytesWritten: text.reduce((n, s) => n + s.bytes, 0),
    });

/** Closes the CSV files in the order they are listed (data files first), describing each. */
const closeCsvFiles = async (sinks: CsvSinks): Promise<WrittenFile[]> => {
  const written: WrittenFile[] = [];
  for (const [sink, def] of sinks.inOrder)
    if (sink && def) written.push(await sink.text.close(def.role, sink.rows));
  return written;
};

/** Writes a text file of the export (never over an existing one) and describes it. */
const textWriter =
  (dir: string) =>
  async (name: string, role: WrittenFile['role'], content: string): Promise<WrittenFile> => {
    const buf = Buffer.from(content, 'utf8');
    await writeFile(join(dir, name), buf, { flag: 'wx' });
    return {
      name,
      role,
      rows: null,
      bytes: buf.length,
      sha256: createHash('sha256').update(buf).digest('hex'),
    };
  };

/** What the codebook, datapackage.json and the workbook's settings sheet say about the export. */
interface DescribeInputs {
  readonly study: { readonly id: number; readonly name: string };
  readonly req: ExportRequest;
  readonly appVersion: string;
  readonly dbSchemaVersion: number;
  readonly exportedAt: string;
  readonly tables: ReturnType<typeof tableDefs>;
  readonly withheld: readonly WithheldColumn[];
  readonly recordings: number;
  readonly tally: Tally;
}

const describeExport = (d: DescribeInputs, written: readonly WrittenFile[]): ExportDescription => ({
  studyName: d.study.name,
  studyId: d.study.id,
  request: d.req,
  appVersion: d.appVersion,
  dbSchemaVersion: d.dbSchemaVersion,
  exportedAt: d.exportedAt,
  tables: d.tables,
  withheld: d.withheld,
  written: [...written],
  recordings: d.recordings,
  participants: d.tally.participants,
  simulatedRecordings: d.tally.simulatedRecordings,
  apiVersions: [...d.tally.versions].sort(),
});

/**
 * After the CSV files: the loaders, the files for statistics packages (from the same column schema and
 * the rows just written), the codebook, datapackage.json and SHA256SUMS, appended to `written`.
 */
const writeDescriptions = async (
  dir: string,
  d: DescribeInputs,
  widths: CsvSinks['widths'],
  written: WrittenFile[],
  book: Workbook | null,
) => {
  const { req, tables } = d;
  const putText = textWriter(dir);
  written.push(await putText('load.R', 'loader', loadR(tables, req.timeZone)));
  written.push(await putText('load.py', 'loader', loadPy(tables, req.timeZone)));
  const stats = tables.map((t) => statTable(t, written.find((f) => f.name === t.name)?.rows ?? 0));
  if (req.extras.includes('spss'))
    written.push(await putText(EXTRA_FILE.spss, 'loader', loadSps(stats, widths, req.timeZone)));
  if (req.extras.includes('stata'))
    written.push(await putText(EXTRA_FILE.stata, 'loader', loadDo(stats, req.timeZone)));
  if (book)
    written.push(
      await book.finish({
        tables,
        settings: settingsRows(describeExport(d, written)),
        warning: simulatedWarning(d.tally.simulatedRecordings, d.recordings),
        exportedAt: d.exportedAt,
      }),
    );
  const description = describeExport(d, written);
  const codebook = await putText('codebook.md', 'codebook', codebookMarkdown(description));
  written.push(codebook);
  written.push(await putText('datapackage.json', 'datapackage', dataPackageJson(description, codebook)));
  const sums = [...written]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => `${f.sha256}  ${f.name}\n`)
    .join('');
  written.push(await putText('SHA256SUMS', 'checksums', sums));
};

/**
 * Every export, from the window, the command line or a script, leaves an entry in the audit log:
 * what was exported in counts and plain words, never codes or paths.
 */
const auditExport = (store: Store, d: DescribeInputs, files: number) =>
  appendAuditAlone(store, {
    at: d.exportedAt,
    kind: 'export_written',
    studyId: d.study.id,
    subject: d.study.name,
    detail: {
      recordings: d.tally.done,
      participants: d.tally.participants,
      values: d.tally.values,
      forms: [...d.req.forms].sort().join('-'),
      extras: d.req.extras.join('-'),
      preset: d.req.preset,
      link_file: d.req.includeLinkFile,
      simulated_recordings: d.tally.simulatedRecordings,
      files,
    },
  });

const reportOf = (
  d: DescribeInputs,
  directory: string,
  folderName: string,
  files: WrittenFile[],
): ExportReport => {
  const t = d.tally;
  return {
    directory,
    folderName,
    files,
    counts: {
      participants: t.participants,
      recordings: t.done,
      analyses: t.pairs,
      values: t.values,
      missing: t.missing,
      simulatedRecordings: t.simulatedRecordings,
    },
    anySimulated: t.simulatedRecordings > 0,
    apiVersions: [...t.versions].sort() as ExportReport['apiVersions'],
    exportedAt: d.exportedAt,
    appVersion: d.appVersion,
    request: d.req,
  };
};

const cancelled = (): ExportProblem =>
  problem('cancelled', 'The export was cancelled; nothing was written.', 'Export again when you are ready.');

/** The study an export reads. */
export interface ExportSource {
  readonly store: Store;
}

/** What the export leaves to clean up whatever happens: open files, the workbook, the hidden folder. */
interface Leftovers {
  readonly text: TextSink[];
  book: Workbook | null;
  tmp: string | null;
}

/** Written, not yet in place: what the export renames and records once its snapshot is closed. */
interface Finished {
  readonly described: DescribeInputs;
  readonly folderName: string;
  readonly written: WrittenFile[];
  readonly progress: (stage: ExportProgress['stage']) => void;
}

/**
 * Everything the export reads, from one snapshot of the study (`q`), written into a hidden folder.
 */
const writeFromSnapshot = async (
  q: Queryable,
  checked: ExportRequest,
  o: RunExportOptions,
  left: Leftovers,
): Promise<Result<Finished, ExportProblem>> => {
  let req = checked;
  const now = o.now ?? Date.now;
  const study = await findStudy(q, req.studyId);
  if (!study) return err(unknownStudy(req.studyId));
  const linkRefused = await refusedLinkFile(q, req);
  if (!linkRefused.ok) return linkRefused;
  const { baselineSessions, reference } = await changeReferenceOf(q, req);
  req = { ...req, baselineSessions };
  const counts = await countSelection(q, utcSelection(req));
  if (counts.recordings === 0)
    return err(
      problem(
        'empty_selection',
        emptySelectionMessage(req),
        'Widen the selection (participants, dates, sessions, analysis types or states).',
      ),
    );

  const exportedAtMs = now();
  const ledger = await participantLedgers(q, study.id, exportedAtMs);
  const folderName = o.folderName ?? `${slug(study.name, study.id)}-export-${stamp(exportedAtMs)}`;
  const partial = await makePartialFolder(o.outDir, folderName);
  if (!partial.ok) return partial;
  const tmp = (left.tmp = partial.value);

  // The study's local acoustic measures and quality control, exported when any recording has them.
  const localMeasures = await studyHasMeasurements(q, req.studyId);
  const every = exportFiles({ ...req, localMeasures });
  const withheld = await withheldColumns(q, every);
  const files = withoutWithheld(every, withheld);
  const tables = tableDefs(files);
  const book = req.extras.includes('xlsx') ? new Workbook(tmp, EXTRA_FILE.xlsx, tables, o.sheetRows) : null;
  left.book = book;
  const sinks = openCsvSinks(files, tmp, req, o.openWrite ?? openWriteFile, left.text, book);
  const measures = selectedMeasures(req);
  const tally = newTally();
  const progress = progressReporter(o.onProgress, tally, counts.recordings, sinks, left.text);
  progress('preparing');

  const pass: Pass = {
    q,
    req,
    sinks,
    longRows: files.long ? createScopedEncoder(files.long.columns, sinks.long?.widths ?? null) : null,
    clock: zonedClock(req.timeZone),
    measures,
    measuresOf: new Map(ANALYSIS_TYPES.map((t) => [t, measures.filter((m) => m.analysis === t)])),
    localMeasures,
    visits: visitCellsOf(ledger),
    reference,
    tally,
    lc: {} as Pass['lc'],
  };
  await streamRecordings(
    pass,
    book ? [...left.text, book] : left.text,
    o.signal,
    o.progressIntervalMs ?? 250,
    progress,
  );
  if (o.signal?.aborted) throw new ExportCancelled();
  await writeVisitFiles(ledger, req.participants, sinks.visits, sinks.completeness);
  progress('describing');

  const written = await closeCsvFiles(sinks);
  const described: DescribeInputs = {
    study,
    req,
    appVersion: o.appVersion,
    dbSchemaVersion: await storeSchemaVersion(q),
    exportedAt: new Date(exportedAtMs).toISOString(),
    tables,
    withheld,
    recordings: counts.recordings,
    tally,
  };
  await writeDescriptions(tmp, described, sinks.widths, written, book);
  return ok({ described, folderName, written, progress });
};

/**
 * Reads the study through a snapshot (`Store.snapshot`: on a study file, a read-only connection of
 * its own, so the engine and the window keep the study's connection while the export runs, and the
 * export sees the study as it was when it began), writes into a hidden folder, then renames it into
 * place and records the export in the audit log.
 */
export const runExport = async (
  source: ExportSource,
  input: unknown,
  o: RunExportOptions,
): Promise<Result<ExportReport, ExportProblem>> => {
  const checked = checkRequest(input);
  if (!checked.ok) return checked;
  const left: Leftovers = { text: [], book: null, tmp: null };
  try {
    const done = await source.store.snapshot((q) => writeFromSnapshot(q, checked.value, o, left));
    if (!done.ok) return done;
    const { described, folderName, written, progress } = done.value;
    if (o.signal?.aborted) throw new ExportCancelled();
    const target = join(o.outDir, folderName);
    await rename(left.tmp!, target);
    left.tmp = null;
    await auditExport(source.store, described, written.length);
    progress('done');
    return ok(reportOf(described, target, folderName, written));
  } catch (e) {
    if (e instanceof ExportCancelled) return err(cancelled());
    return err(fileProblem(e, o.outDir));
  } finally {
    await Promise.all([...left.text.map((s) => s.abandon()), left.book?.abandon()]);
    if (left.tmp) await rm(left.tmp, { recursive: true, force: true }).catch(() => {});
  }
};
