/**
 * Export a selection of the study as indicator spreadsheets (long, wide, per-participant summary) with
 * their codebook. The desktop app writes into a folder the researcher chooses; browser mode writes into
 * the workspace and offers the files as downloads. Progress is shown and the run can be cancelled.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useParams } from 'wouter';
import { type Output } from '../../../../shared/contract';
import { type ExportProgress, type ExportReport, type ExportRequestInput } from '../../../../shared/export';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { PageHeader } from '../../components/Page';
import { Bar } from '../../components/Progress';
import { useAction, useCall, useEvent } from '../../lib/api';
import { downloadWithTicket } from '../../lib/rpc/download';
import { fmtBytes, fmtInt, plural } from '../../lib/format';
import {
  choicesIncomplete,
  exportRequest,
  initialChoices,
  splitCodes,
  type ExportChoices,
} from './export-choices';
import { ExportFiles } from './ExportFiles';
import { ExportSelection } from './ExportSelection';

const newId = () =>
  crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;

/**
 * Browser mode offers the export as downloads. Each click asks for a one-time ticket, so the launch
 * token never appears in an address (lib/rpc/download.ts).
 */
const ResultPanel = ({ report, browser }: { report: ExportReport; browser: boolean }) => {
  const base = `/download/exports/${encodeURIComponent(report.folderName)}`;
  const [problem, setProblem] = useState<string | null>(null);
  const download = (path: string) => () => {
    setProblem(null);
    void downloadWithTicket(path).then(setProblem);
  };
  return (
    <Notice tone="ok" title="Export written">
      <p>
        {plural(report.counts.recordings, 'recording')} of {plural(report.counts.participants, 'participant')}
        : {fmtInt(report.counts.values)} values, {fmtInt(report.counts.missing)} cells left empty because the
        service did not provide a value (never 0).
      </p>
      {report.anySimulated && (
        <p>
          <SimulatedBadge long /> {plural(report.counts.simulatedRecordings, 'recording')} carry simulated
          values; the <code>simulated</code> column and the codebook say so.
        </p>
      )}
      <p className="muted">
        Folder: <code>{report.directory}</code> · API {report.apiVersions.join(' and ')} · the codebook
        (codebook.md, datapackage.json) lists every column and the SHA-256 of every file.
      </p>
      {browser && (
        <p>
          <button type="button" className="primary" onClick={download(`${base}.zip`)}>
            Download all files (zip)
          </button>
        </p>
      )}
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <table className="table compact">
        <caption className="sr-only">Files written</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Holds</th>
            <th scope="col" className="right">
              Rows
            </th>
            <th scope="col" className="right">
              Size
            </th>
            <th scope="col">SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {report.files.map((f) => (
            <tr key={f.name}>
              <th scope="row">
                {browser ? (
                  <button
                    type="button"
                    className="link"
                    aria-label={`Download ${f.name}`}
                    onClick={download(`${base}/${encodeURIComponent(f.name)}`)}
                  >
                    {f.name}
                  </button>
                ) : (
                  f.name
                )}
              </th>
              <td>{f.role}</td>
              <td className="right">{f.rows === null ? '—' : fmtInt(f.rows)}</td>
              <td className="right">{fmtBytes(f.bytes)}</td>
              <td>
                <code title={f.sha256}>{f.sha256.slice(0, 16)}…</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Notice>
  );
};

/** One export at a time: its id while it runs, its progress, how it ended and its report. */
const useExportRun = (studyId: number) => {
  const run = useAction('exports.run');
  const cancel = useAction('exports.cancel');
  const [exportId, setExportId] = useState<string | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [report, setReport] = useState<ExportReport | null>(null);
  useEvent('exports.progress', (p) => {
    if (p.exportId === exportId) setProgress(p);
  });
  useEffect(() => {
    setReport(null);
  }, [studyId]);
  const start = async (request: ExportRequestInput, destination: string | null) => {
    const id = newId();
    setExportId(id);
    setProgress(null);
    setReport(null);
    const r = await run.run({ exportId: id, request, ...(destination ? { destination } : {}) });
    setExportId(null);
    if (r.ok) setReport(r.value);
  };
  return {
    start,
    cancel: () => {
      if (exportId) void cancel.run({ exportId });
    },
    pending: run.pending,
    error: run.error,
    exportId,
    progress,
    report,
  };
};
type ExportRun = ReturnType<typeof useExportRun>;

/** The Export button, Cancel while it runs, the progress, and how the last run ended. */
const RunControls = ({
  exportRun,
  link,
  invalid,
}: {
  exportRun: ExportRun;
  link: boolean;
  invalid: boolean;
}) => {
  const { pending, exportId, progress, error } = exportRun;
  return (
    <>
      <div className="row">
        <button type="submit" className="primary" disabled={pending || invalid}>
          {pending ? 'Exporting…' : 'Export'}
        </button>
        {pending && exportId && (
          <button type="button" onClick={exportRun.cancel}>
            Cancel
          </button>
        )}
        {link && <Badge tone="warn">includes the link file</Badge>}
      </div>
      {pending && progress && (
        <div aria-live="polite">
          <Bar
            label={progress.stage === 'writing' ? 'Recordings written' : `Stage: ${progress.stage}`}
            value={progress.recordingsDone}
            max={progress.recordingsTotal}
          />
          <p className="muted small">
            {fmtInt(progress.rowsWritten)} rows, {fmtBytes(progress.bytesWritten)}
          </p>
        </div>
      )}
      <ErrorNotice
        error={error}
        title={error?.code === 'CANCELLED' ? 'Export cancelled' : 'The export was not written'}
      />
    </>
  );
};

export const ExportPage = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const options = useCall('exports.options', { studyId });
  const info = useCall('app.info', {});
  const pick = useAction('files.pick');
  const unknown = useAction('exports.unknownCodes');
  const groupId = useId();
  const [choices, setChoices] = useState<ExportChoices>(() =>
    initialChoices(Intl.DateTimeFormat().resolvedOptions().timeZone),
  );
  const change = (patch: Partial<ExportChoices>) => setChoices((c) => ({ ...c, ...patch }));
  const studyK = useCall('reliability.get', { studyId }).data?.baselineSessions ?? 3;
  const [destination, setDestination] = useState<string | null>(null);
  const exportRun = useExportRun(studyId);

  const desktop = info.data?.capabilities.nativeDialogs === true;
  const codeList = useMemo(() => splitCodes(choices.codes), [choices.codes]);
  const chooseFolder = async () => {
    const r = await pick.run({ purpose: 'export-folder' });
    if (r.ok && r.value.paths[0]) setDestination(r.value.paths[0]);
  };
  const form = (o: Output<'exports.options'>) => (
    <form
      className="page"
      onSubmit={(e) => {
        e.preventDefault();
        void exportRun.start(exportRequest(studyId, choices), destination);
      }}
    >
      {o.simulated && (
        <Notice tone="warn" title="This study holds simulated results">
          <p>
            <SimulatedBadge long /> Every exported row says whether its values are simulated (
            <code>simulated</code> column), and so does the codebook.
          </p>
        </Notice>
      )}
      <ExportSelection
        choices={choices}
        change={change}
        groupId={groupId}
        o={o}
        checkCodes={() => void unknown.run({ studyId, codes: codeList })}
        unknown={unknown.value?.unknown}
      />
      <ExportFiles
        choices={choices}
        change={change}
        groupId={groupId}
        studyK={studyK}
        destination={{
          desktop,
          destination,
          choose: () => void chooseFolder(),
          exportsDir: o.workspaceExportsDir,
        }}
      />
      <RunControls
        exportRun={exportRun}
        link={choices.link}
        invalid={choicesIncomplete(choices, desktop && !destination)}
      />
      <ErrorNotice error={pick.error} />
      {exportRun.report && <ResultPanel report={exportRun.report} browser={!desktop} />}
    </form>
  );

  return (
    <div className="page">
      <PageHeader
        title="Export indicator spreadsheets"
        subtitle="CSV files for R, Python, SPSS, Stata and Excel, with a codebook that describes every column. The same selection exported twice gives the same files."
      />
      <QueryView q={options}>
        {(o) =>
          o.uploadedRecordings === 0 ? (
            <Notice tone="info" title="Nothing to export yet">
              Recordings appear here once they have been uploaded and analysed.
            </Notice>
          ) : (
            form(o)
          )
        }
      </QueryView>
    </div>
  );
};
