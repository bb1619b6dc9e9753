/**
 * The export's one entry point, for the app's IPC handler, the command line and scripts alike:
 * `runExport(db, request, options)` checks the request, reads a consistent snapshot of the study
 * through its own read-only connection (the engine may keep writing meanwhile), streams every chosen
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
import { schemaVersion } from '../db/migrate';
import { appendAudit } from '../db/repos/audit.repo';
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
  tableDefs,
  type AnswerCtx,
  type FlagCtx,
  type LinkCtx,
  type LongCtx,
  type PairView,
  type RecordingCtx,
  type WideCtx,
} from './schema';
import {
  accountOf,
  countSelection,
  findStudy,
  iterateSelection,
  openSnapshotReader,
} from '../db/repos/export-selection.repo';
import type { Db } from '../db/open';
import { measurementsOfStudy } from '../db/repos/local-measures.repo';
import { LOCAL_MEASURE_DEFS, localPair } from './local-columns';
import { fileNameOf, type ExportColumn } from './column';
import { createScopedEncoder } from './scoped-rows';
import { statTable } from './stat-variables';
import { ParticipantSummary } from './summary';
import { TextWidths } from './text-widths';
import { writeWorkbook } from './workbook';
import { changeSettings, CohortReferences } from '../change/change-reference';
import { boundToUtcMs, utcCell, zonedClock } from './time';
import { completenessOf } from '../../shared/visit-accounting';
import { recordedAfterWithdrawal } from '../../shared/withdrawal';
import { buildVisitLedger, type VisitLedger } from '../design/visit-ledger';
import { NO_VISIT, type VisitCells, type VisitRowCtx } from './visit-files';

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

/** Each recording's visit cells, from the study's visit ledger. */
const visitCellsOf = (ledger: VisitLedger | null) => {
  const index = new Map(ledger?.design.visits.map((v) => [v.id, v]) ?? []);
  return (recordingId: number): VisitCells => {
    const r = ledger?.byRecording.get(recordingId);
    if (!r) return NO_VISIT;
    const a = r.assignment;
    const v = a.visitId === null ? undefined : index.get(a.visitId);
    return {
      name: v?.name ?? null,
      index: v?.position ?? null,
      daysSinceBaseline: a.daysSinceBaseline,
      source: a.source,
      afterWithdrawal: recordedAfterWithdrawal(r.date, r.participant),
    };
  };
};

/**
 * visits.csv and completeness.csv: every expected visit of the export's participants (all of the
 * study's, or those the request names), whatever the date, session or state filters.
 */
const writeVisitFiles = (
  ledger: VisitLedger | null,
  codes: readonly string[] | undefined,
  visitsSink: CsvSink<VisitRowCtx>,
  completenessSink: CsvSink<ReturnType<typeof completenessOf>[number]>,
): void => {
  if (!ledger) return;
  const wanted = codes ? new Set(codes) : null;
  const byId = new Map(ledger.participants.map((p) => [p.id, p]));
  const rows = ledger.rows.filter((r) => wanted === null || wanted.has(r.participant));
  for (const row of rows) {
    const p = byId.get(row.participantId)!;
    const source = row.recording === null ? undefined : ledger.byRecording.get(row.recording)?.sourcePath;
    visitsSink.row({
      row,
      status: p.status,
      baseline: p.baseline?.date ?? null,
      baselineSource: p.baseline?.source ?? null,
      fileName: source === undefined ? null : fileNameOf(source),
    });
  }
  for (const line of completenessOf(ledger.design.visits, rows)) completenessSink.row(line);
};

export const runExport = async (
  db: Db,
  input: unknown,
  o: RunExportOptions,
): Promise<Result<ExportReport, ExportProblem>> => {
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
  let req = normalise(parsed.data);
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
  const now = o.now ?? Date.now;
  const progressEvery = o.progressIntervalMs ?? 250;
  const { reader, close } = openSnapshotReader(db);
  let tmp: string | null = null;
  const sinks: TextSink[] = [];
  try {
    const study = findStudy(reader, req.studyId);
    if (!study)
      return err(
        problem(
          'unknown_study',
          `There is no study ${req.studyId} in this workspace.`,
          'Choose a study from the list (voicescope study list).',
        ),
      );
    // k: as asked, else the study's setting; the cohort reference is the study's (every participant), whatever is selected.
    const change = changeSettings(reader, req.studyId);
    req = { ...req, baselineSessions: req.baselineSessions ?? change.baselineSessions };
    const cohort = req.forms.includes('summary')
      ? CohortReferences.of(reader, req.studyId, req.baselineSessions!)
      : null;
    const reference = {
      cohort: (key: string, version: string) => cohort!.get(key, version),
      reliabilities: change.reliabilities,
    };
    const counts = countSelection(reader, req);
    if (counts.recordings === 0)
      return err(
        problem(
          'empty_selection',
          emptySelectionMessage(req),
          'Widen the selection (participants, dates, sessions, analysis types or states).',
        ),
      );

    const exportedAtMs = now();
    const exportedAt = new Date(exportedAtMs).toISOString();
    const ledger = buildVisitLedger(reader, study.id, exportedAtMs);
    const visitOf = visitCellsOf(ledger);
    const folderName = o.folderName ?? `${slug(study.name, study.id)}-export-${stamp(exportedAtMs)}`;
    const target = join(o.outDir, folderName);
    try {
      if (!(await stat(o.outDir)).isDirectory())
        return err(problem('folder_unwritable', `${o.outDir} is not a folder.`, 'Choose a folder.'));
    } catch (e) {
      return err(fileProblem(e, o.outDir));
    }
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    )
      return err(fileProblem(Object.assign(new Error('exists'), { code: 'EEXIST' }), o.outDir));
    try {
      tmp = await mkdtemp(join(o.outDir, `.${folderName}.partial-`));
    } catch (e) {
      return err(fileProblem(e, o.outDir));
    }

    // The study's local acoustic measures and quality control, exported when any recording has them.
    const localOf = measurementsOfStudy(reader, req.studyId);
    const files = exportFiles({ ...req, localMeasures: localOf.size > 0 });
    const bom = req.preset === 'excel';
    const open = o.openWrite ?? openWriteFile;
    const text = (name: string): TextSink => {
      const s = new TextSink(name, open(join(tmp!, name)));
      sinks.push(s);
      return s;
    };
    // SPSS declares each text column's width before reading: noted while writing, only when load.sps is asked for.
    const widths = new Map<string, TextWidths>();
    const widthsOf = (f: { name: string; columns: readonly unknown[] }): TextWidths | null => {
      if (!req.extras.includes('spss')) return null;
      const w = new TextWidths(f.columns.length);
      widths.set(f.name, w);
      return w;
    };
    const sink = <C>(f: { name: string; columns: readonly ExportColumn<C>[] }): CsvSink<C> =>
      new CsvSink(text(f.name), f.columns, bom, widthsOf(f));
    const recordingsSink = sink(files.recordings);
    const longSink = files.long ? sink(files.long) : null;
    const wideSink = files.wide ? sink(files.wide) : null;
    const summarySink = files.summary ? sink(files.summary) : null;
    const linkSink = files.link ? sink(files.link) : null;
    const flagSink = sink(files.dataQuality);
    const answerSink = sink(files.answers);
    const visitsSink = sink(files.visits);
    const completenessSink = sink(files.completeness);
    const csvSinks = [
      longSink,
      wideSink,
      summarySink,
      visitsSink,
      completenessSink,
      recordingsSink,
      flagSink,
      answerSink,
      linkSink,
    ].filter((s) => s !== null);

    const longRows = files.long ? createScopedEncoder(files.long.columns, longSink?.widths ?? null) : null;
    const clock = zonedClock(req.timeZone);
    const measures = selectedMeasures(req);
    const measuresOf = new Map<AnalysisType, MeasureDef[]>(
      ANALYSIS_TYPES.map((t) => [t, measures.filter((m) => m.analysis === t)]),
    );
    let values = 0,
      missing = 0,
      pairsDone = 0,
      simulatedRecordings = 0,
      done = 0,
      participants = 0;
    const versions = new Set<string>();
    const progress = (stage: ExportProgress['stage']) =>
      o.onProgress?.({
        stage,
        recordingsDone: done,
        recordingsTotal: counts.recordings,
        rowsWritten: csvSinks.reduce((n, s) => n + s.rows, 0),
        bytesWritten: sinks.reduce((n, s) => n + s.bytes, 0),
      });
    progress('preparing');

    let current = null as { id: number; summary: ParticipantSummary | null } | null;
    const closeParticipant = () => {
      if (current?.summary && summarySink) for (const row of current.summary.rows()) summarySink.row(row);
    };
    // One mutable context per form, refilled for each row: no allocation per long-form row.
    const lc = {} as { -readonly [K in keyof LongCtx]: LongCtx[K] };
    let lastProgress = performance.now(),
      lastYield = lastProgress;

    for (const rec of iterateSelection(reader, req)) {
      if (o.signal?.aborted) throw new ExportCancelled();
      const r = rec.r;
      if (current?.id !== r.participantId) {
        closeParticipant();
        participants++;
        current = {
          id: r.participantId,
          summary: summarySink
            ? new ParticipantSummary(r.participant, measures, req.baselineSessions, reference)
            : null,
        };
        if (linkSink) {
          const a = accountOf(reader, r.participantId);
          const createdUtc = utcCell(a.createdAt);
          linkSink.row({
            participant: r.participant,
            accountId: a.accountId,
            createdUtc,
            created: clock(createdUtc),
          } satisfies LinkCtx);
        }
      }
      const recordedUtc = utcCell(r.recordedAt);
      const uploadedUtc = utcCell(r.uploadedAt);
      const ctx: RecordingCtx = {
        r,
        recordedUtc,
        recorded: clock(recordedUtc),
        uploadedUtc,
        uploaded: clock(uploadedUtc),
        flags: rec.flags,
        local: localOf.get(r.id) ?? null,
        visit: visitOf(r.id),
      };
      const simulated = r.resultSource === 'simulated';
      if (simulated) simulatedRecordings++;
      if (r.apiVersion !== null) versions.add(r.apiVersion);
      recordingsSink.row(ctx);
      rec.flags.forEach((flag, i) => flagSink.row({ recording: r.id, n: i + 1, flag } satisfies FlagCtx));
      for (const answer of rec.answers) answerSink.row({ answer } satisfies AnswerCtx);
      if (wideSink)
        wideSink.row({
          ...ctx,
          pairs: new Map<AnalysisType, PairView>(rec.pairs.map((p) => [p.type, p])),
          values: rec.values,
        } satisfies WideCtx);
      const at = { recording: r.id, recordedAt: r.recordedAt, utc: recordedUtc, local: ctx.recorded };
      // The summary counts what the timeline counts: values of uploaded recordings not excluded from
      // analysis, by their API version.
      const summary = r.uploadState === 'uploaded' && r.excludedAt === null ? current.summary : null;
      Object.assign(lc, ctx);
      longRows?.recording(lc);
      for (const pair of rec.pairs) {
        pairsDone++;
        lc.pair = pair;
        longRows?.pair(lc);
        for (const m of measuresOf.get(pair.type) ?? []) {
          const v = rec.values[m.key];
          if (v === undefined) missing++;
          else {
            values++;
            summary?.add(m.key, v, at, simulated, r.apiVersion);
          }
          if (longSink && longRows) {
            lc.measure = m;
            lc.value = v;
            longSink.scopedRow(longRows, lc, m.key);
          }
        }
      }
      if (ctx.local && longSink && longRows) {
        lc.pair = localPair(ctx.local);
        longRows.pair(lc);
        for (const d of LOCAL_MEASURE_DEFS) {
          lc.measure = d;
          lc.value = ctx.local.measures[d.key] ?? undefined;
          longSink.scopedRow(longRows, lc, d.key);
        }
      }
      done++;
      if (sinks.some((s) => s.blocked)) for (const s of sinks) await s.ready();
      if ((done & 63) === 0) {
        const t = performance.now();
        if (t - lastProgress >= progressEvery) {
          lastProgress = t;
          progress('writing');
        }
        // Give the event loop a turn now and then: the app's main process stays responsive and a cancel gets through.
        if (t - lastYield >= 20) {
          await new Promise((res) => setImmediate(res));
          lastYield = performance.now();
        }
      }
    }
    closeParticipant();
    if (o.signal?.aborted) throw new ExportCancelled();
    writeVisitFiles(ledger, req.participants, visitsSink, completenessSink);
    progress('describing');

    const written: WrittenFile[] = [];
    const csvFiles = [
      [longSink, files.long],
      [wideSink, files.wide],
      [summarySink, files.summary],
      [visitsSink, files.visits],
      [completenessSink, files.completeness],
      [recordingsSink, files.recordings],
      [flagSink, files.dataQuality],
      [answerSink, files.answers],
      [linkSink, files.link],
    ] as const;
    for (const [sink, def] of csvFiles)
      if (sink && def) written.push(await sink.text.close(def.role, sink.rows));
    const tables = tableDefs(files);
    const putText = async (
      name: string,
      role: WrittenFile['role'],
      content: string,
    ): Promise<WrittenFile> => {
      const buf = Buffer.from(content, 'utf8');
      await writeFile(join(tmp!, name), buf, { flag: 'wx' });
      return {
        name,
        role,
        rows: null,
        bytes: buf.length,
        sha256: createHash('sha256').update(buf).digest('hex'),
      };
    };
    written.push(await putText('load.R', 'loader', loadR(tables, req.timeZone)));
    written.push(await putText('load.py', 'loader', loadPy(tables, req.timeZone)));
    const describe = (): ExportDescription => ({
      studyName: study.name,
      studyId: study.id,
      request: req,
      appVersion: o.appVersion,
      dbSchemaVersion: schemaVersion(reader),
      exportedAt,
      tables,
      written: [...written],
      recordings: counts.recordings,
      participants,
      simulatedRecordings,
      apiVersions: [...versions].sort(),
    });
    // The files for statistics packages, from the same column schema and the rows just written.
    const stats = tables.map((t) => statTable(t, written.find((f) => f.name === t.name)?.rows ?? 0));
    if (req.extras.includes('spss'))
      written.push(await putText(EXTRA_FILE.spss, 'loader', loadSps(stats, widths, req.timeZone)));
    if (req.extras.includes('stata'))
      written.push(await putText(EXTRA_FILE.stata, 'loader', loadDo(stats, req.timeZone)));
    if (req.extras.includes('xlsx'))
      written.push(
        await writeWorkbook(tmp, EXTRA_FILE.xlsx, stats, {
          tables,
          settings: settingsRows(describe()),
          warning: simulatedWarning(simulatedRecordings, counts.recordings),
          signal: o.signal,
        }),
      );
    const description = describe();
    const codebook = await putText('codebook.md', 'codebook', codebookMarkdown(description));
    written.push(codebook);
    written.push(await putText('datapackage.json', 'datapackage', dataPackageJson(description, codebook)));
    const sums = [...written]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((f) => `${f.sha256}  ${f.name}\n`)
      .join('');
    written.push(await putText('SHA256SUMS', 'checksums', sums));

    if (o.signal?.aborted) throw new ExportCancelled();
    await rename(tmp, target);
    tmp = null;
    // Every export, from the window, the command line or a script, leaves an entry in the audit log:
    // what was exported in counts and plain words, never codes or paths.
    appendAudit(db, {
      at: exportedAt,
      kind: 'export_written',
      studyId: study.id,
      subject: study.name,
      detail: {
        recordings: done,
        participants,
        values,
        forms: [...req.forms].sort().join('-'),
        extras: req.extras.join('-'),
        preset: req.preset,
        link_file: req.includeLinkFile,
        simulated_recordings: simulatedRecordings,
        files: written.length,
      },
    });
    progress('done');
    return ok({
      directory: target,
      folderName,
      files: written,
      counts: { participants, recordings: done, analyses: pairsDone, values, missing, simulatedRecordings },
      anySimulated: simulatedRecordings > 0,
      apiVersions: [...versions].sort() as ExportReport['apiVersions'],
      exportedAt,
      appVersion: o.appVersion,
      request: req,
    });
  } catch (e) {
    if (e instanceof ExportCancelled)
      return err(
        problem(
          'cancelled',
          'The export was cancelled; nothing was written.',
          'Export again when you are ready.',
        ),
      );
    return err(fileProblem(e, o.outDir));
  } finally {
    await Promise.all(sinks.map((s) => s.abandon()));
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => {});
    close();
  }
};
