/**
 * Export a selection of the study as indicator spreadsheets (long, wide, per-participant summary) with
 * their codebook. The desktop app writes into a folder the researcher chooses; browser mode writes into
 * the workspace and offers the files as downloads. Progress is shown and the run can be cancelled.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useParams } from 'wouter';
import { ANALYSIS_TYPES, type AnalysisType } from '../../../../shared/api/vocabulary';
import {
  EXPORT_EXTRAS,
  EXPORT_FORMS,
  EXTRA_FILE,
  type ExportExtra,
  type ExportForm,
  type ExportProgress,
  type ExportReport,
  type ExportRequestInput,
} from '../../../../shared/export';
import { ANALYSIS_STATES } from '../../../../shared/states';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { Checkbox, TextField } from '../../components/Form';
import { PageHeader, Section } from '../../components/Page';
import { Bar } from '../../components/Progress';
import { useAction, useCall, useEvent } from '../../lib/api';
import { downloadWithTicket } from '../../lib/rpc/download';
import { fmtBytes, fmtDate, fmtInt, plural } from '../../lib/format';
import { ANALYSIS_LABEL, ANALYSIS_STATE } from '../../lib/labels';

const FORM_TEXT: Record<ExportForm, { label: string; hint: string }> = {
  long: {
    label: 'Long (tidy): one row per recording and measure',
    hint: 'measures_long.csv — what R (tidyverse) and pandas prefer.',
  },
  wide: {
    label: 'Wide: one row per recording, one column per measure',
    hint: 'measures_wide.csv — for Excel and SPSS; stable column names and order.',
  },
  summary: {
    label: 'Per-participant summary',
    hint: 'participant_summary.csv — per measure and API version: n, baseline (mean and SD of the first sessions, as on the timeline), latest, change, mean and SD.',
  },
};

const EXTRA_TEXT: Record<ExportExtra, { label: string; hint: string }> = {
  spss: {
    label: 'SPSS syntax',
    hint: `${EXTRA_FILE.spss} — reads every CSV with variable labels, value labels for every category and the missing-data codes declared, and saves .sav files (also runs in GNU PSPP).`,
  },
  stata: {
    label: 'Stata do-file',
    hint: `${EXTRA_FILE.stata} — reads every CSV with variable and value labels and the missing-data codes as extended missing values (.a–.j), and saves .dta files.`,
  },
  xlsx: {
    label: 'Excel workbook',
    hint: `${EXTRA_FILE.xlsx} — a sheet per CSV with numbers, dates and text typed, plus a codebook sheet. Takes much longer and more memory than the CSVs: meant for studies of Excel’s size.`,
  },
};

const splitCodes = (s: string) => [
  ...new Set(
    s
      .split(/[\n,;\t]+/)
      .map((c) => c.trim())
      .filter(Boolean),
  ),
];
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

export const ExportPage = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const options = useCall('exports.options', { studyId });
  const info = useCall('app.info', {});
  const run = useAction('exports.run');
  const cancel = useAction('exports.cancel');
  const pick = useAction('files.pick');
  const unknown = useAction('exports.unknownCodes');
  const groupId = useId();

  const [allParticipants, setAllParticipants] = useState(true);
  const [codes, setCodes] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [sessions, setSessions] = useState<string[] | null>(null);
  const [analyses, setAnalyses] = useState<AnalysisType[] | null>(null);
  const [states, setStates] = useState<string[]>([...ANALYSIS_STATES]);
  const [forms, setForms] = useState<ExportForm[]>([...EXPORT_FORMS]);
  const [extras, setExtras] = useState<ExportExtra[]>([]);
  const [preset, setPreset] = useState<'standard' | 'excel'>('standard');
  const [timeZone, setTimeZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [link, setLink] = useState(false);
  // Null: the study's own k (its change statistics setting); a number: chosen for this export.
  const [baselineSessions, setBaselineSessions] = useState<number | null>(null);
  const studyK = useCall('reliability.get', { studyId }).data?.baselineSessions ?? 3;
  const [destination, setDestination] = useState<string | null>(null);
  const [exportId, setExportId] = useState<string | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [report, setReport] = useState<ExportReport | null>(null);

  useEvent('exports.progress', (p) => {
    if (p.exportId === exportId) setProgress(p);
  });
  useEffect(() => {
    setReport(null);
  }, [studyId]);

  const desktop = info.data?.capabilities.nativeDialogs === true;
  const codeList = useMemo(() => splitCodes(codes), [codes]);
  const request = (): ExportRequestInput => ({
    studyId,
    timeZone,
    forms,
    extras,
    preset,
    includeLinkFile: link,
    ...(baselineSessions !== null ? { baselineSessions } : {}),
    ...(allParticipants ? {} : { participants: codeList }),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(sessions ? { sessions } : {}),
    ...(analyses ? { analyses } : {}),
    ...(states.length < ANALYSIS_STATES.length
      ? { states: states as (typeof ANALYSIS_STATES)[number][] }
      : {}),
  });
  const start = async () => {
    const id = newId();
    setExportId(id);
    setProgress(null);
    setReport(null);
    const r = await run.run({ exportId: id, request: request(), ...(destination ? { destination } : {}) });
    setExportId(null);
    if (r.ok) setReport(r.value);
  };
  const invalid =
    forms.length === 0 ||
    states.length === 0 ||
    analyses?.length === 0 ||
    (!allParticipants && codeList.length === 0) ||
    sessions?.length === 0 ||
    (desktop && !destination);

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
            <form
              className="page"
              onSubmit={(e) => {
                e.preventDefault();
                void start();
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
              <Section title="What to export">
                <p className="muted">
                  {plural(o.uploadedRecordings, 'analysed recording')} of{' '}
                  {plural(o.participants, 'participant')}, recorded {fmtDate(o.firstRecordedAt)} to{' '}
                  {fmtDate(o.lastRecordedAt)} · API {o.apiVersions.join(' and ') || '—'}
                </p>
                <fieldset>
                  <legend>Participants</legend>
                  <div className="row">
                    <label>
                      <input
                        type="radio"
                        name={`${groupId}-p`}
                        checked={allParticipants}
                        onChange={() => setAllParticipants(true)}
                      />{' '}
                      All {fmtInt(o.participants)}
                    </label>
                    <label>
                      <input
                        type="radio"
                        name={`${groupId}-p`}
                        checked={!allParticipants}
                        onChange={() => setAllParticipants(false)}
                      />{' '}
                      Only these codes
                    </label>
                  </div>
                  {!allParticipants && (
                    <div className="field">
                      <label htmlFor={`${groupId}-codes`}>
                        Participant codes (one per line, or separated by commas)
                      </label>
                      <textarea
                        id={`${groupId}-codes`}
                        rows={4}
                        value={codes}
                        onChange={(e) => setCodes(e.target.value)}
                        onBlur={() => void unknown.run({ studyId, codes: codeList })}
                      />
                      {unknown.value && unknown.value.unknown.length > 0 && (
                        <p className="error-text">
                          Not in this study: {unknown.value.unknown.slice(0, 20).join(', ')}
                          {unknown.value.unknown.length > 20 ? '…' : ''}
                        </p>
                      )}
                    </div>
                  )}
                </fieldset>
                <div className="grid-form">
                  <TextField
                    label="Recorded from (inclusive)"
                    type="date"
                    value={from}
                    onChange={(e) => setFrom(e.target.value)}
                    hint="A calendar day in the time zone below."
                  />
                  <TextField
                    label="Recorded to (inclusive)"
                    type="date"
                    value={to}
                    onChange={(e) => setTo(e.target.value)}
                  />
                </div>
                {o.sessions.length > 0 && (
                  <fieldset>
                    <legend>Sessions</legend>
                    <Checkbox
                      label="All sessions"
                      checked={sessions === null}
                      onChange={(v) => setSessions(v ? null : [...o.sessions])}
                    />
                    {sessions !== null && (
                      <div className="checks">
                        {o.sessions.map((s) => (
                          <Checkbox
                            key={s}
                            label={s}
                            checked={sessions.includes(s)}
                            onChange={(v) =>
                              setSessions(v ? [...sessions, s] : sessions.filter((x) => x !== s))
                            }
                          />
                        ))}
                      </div>
                    )}
                    {o.sessionsTruncated && (
                      <p className="hint">Only the first 500 session labels are listed.</p>
                    )}
                  </fieldset>
                )}
                <fieldset>
                  <legend>Analysis types</legend>
                  <div className="checks">
                    {ANALYSIS_TYPES.filter((t) => o.analyses.includes(t)).map((t) => (
                      <Checkbox
                        key={t}
                        label={ANALYSIS_LABEL[t]}
                        checked={(analyses ?? o.analyses).includes(t)}
                        onChange={(v) => {
                          const cur = analyses ?? o.analyses;
                          setAnalyses(v ? [...cur, t] : cur.filter((x) => x !== t));
                        }}
                      />
                    ))}
                  </div>
                </fieldset>
                <fieldset>
                  <legend>Analysis states</legend>
                  <p className="hint">
                    A failed or pending analysis is exported with its state and empty values, so nothing
                    disappears silently. Keep only “Completed” to leave them out.
                  </p>
                  <div className="checks">
                    {ANALYSIS_STATES.filter((s) => s !== 'awaiting_upload').map((s) => (
                      <Checkbox
                        key={s}
                        label={ANALYSIS_STATE[s].label}
                        checked={states.includes(s)}
                        onChange={(v) => setStates(v ? [...states, s] : states.filter((x) => x !== s))}
                      />
                    ))}
                  </div>
                </fieldset>
              </Section>
              <Section title="Files">
                <fieldset>
                  <legend>Forms</legend>
                  {EXPORT_FORMS.map((f) => (
                    <Checkbox
                      key={f}
                      label={FORM_TEXT[f].label}
                      hint={FORM_TEXT[f].hint}
                      checked={forms.includes(f)}
                      onChange={(v) => setForms(v ? [...forms, f] : forms.filter((x) => x !== f))}
                    />
                  ))}
                  <p className="hint">
                    recordings.csv (provenance of every recording), codebook.md, datapackage.json, load.R,
                    load.py and SHA256SUMS are always written.
                  </p>
                </fieldset>
                <fieldset>
                  <legend>Also for statistics packages</legend>
                  {EXPORT_EXTRAS.map((x) => (
                    <Checkbox
                      key={x}
                      label={EXTRA_TEXT[x].label}
                      hint={EXTRA_TEXT[x].hint}
                      checked={extras.includes(x)}
                      onChange={(v) => setExtras(v ? [...extras, x] : extras.filter((e) => e !== x))}
                    />
                  ))}
                </fieldset>
                <fieldset>
                  <legend>For which program</legend>
                  <div className="row">
                    <label>
                      <input
                        type="radio"
                        name={`${groupId}-preset`}
                        checked={preset === 'standard'}
                        onChange={() => setPreset('standard')}
                      />{' '}
                      R, Python, SPSS (UTF-8, no byte order mark)
                    </label>
                    <label>
                      <input
                        type="radio"
                        name={`${groupId}-preset`}
                        checked={preset === 'excel'}
                        onChange={() => setPreset('excel')}
                      />{' '}
                      Excel (UTF-8 with a byte order mark)
                    </label>
                  </div>
                  <p className="hint">
                    A byte order mark lets Excel on Windows read accents correctly but turns the first column
                    name of base R's read.csv into “ï..recording”.
                  </p>
                </fieldset>
                <div className="grid-form">
                  <TextField
                    label="Time zone of the local-time columns"
                    value={timeZone}
                    onChange={(e) => setTimeZone(e.target.value)}
                    required
                    hint="An IANA name such as Europe/Berlin. Times are also always given in UTC."
                  />
                  {forms.includes('summary') && (
                    <TextField
                      label="Sessions in each baseline (summary)"
                      type="number"
                      min={1}
                      max={20}
                      value={baselineSessions ?? studyK}
                      onChange={(e) => setBaselineSessions(Number(e.target.value))}
                      hint="The baseline is the mean of a participant's first sessions of a measure within the selection, per API version, once all of them exist, as on the participant's timeline (the study's setting unless changed here)."
                    />
                  )}
                </div>
                <Checkbox
                  label="Also write the link file (participant code ↔ service account id)"
                  checked={link}
                  onChange={setLink}
                  hint="participant_accounts.csv is the only file that links your pseudonyms to the service's accounts. Keep it apart from the data."
                />
                {desktop ? (
                  <div className="row">
                    <button
                      type="button"
                      onClick={async () => {
                        const r = await pick.run({ purpose: 'export-folder' });
                        if (r.ok && r.value.paths[0]) setDestination(r.value.paths[0]);
                      }}
                    >
                      Choose a folder…
                    </button>
                    <span className={destination ? '' : 'muted'}>
                      {destination ?? 'No folder chosen yet'}
                    </span>
                  </div>
                ) : (
                  <p className="muted">
                    Browser mode: the files are written to <code>{o.workspaceExportsDir}</code> and offered as
                    downloads.
                  </p>
                )}
              </Section>
              <div className="row">
                <button type="submit" className="primary" disabled={run.pending || invalid}>
                  {run.pending ? 'Exporting…' : 'Export'}
                </button>
                {run.pending && exportId && (
                  <button type="button" onClick={() => void cancel.run({ exportId })}>
                    Cancel
                  </button>
                )}
                {link && <Badge tone="warn">includes the link file</Badge>}
              </div>
              {run.pending && progress && (
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
                error={run.error}
                title={run.error?.code === 'CANCELLED' ? 'Export cancelled' : 'The export was not written'}
              />
              <ErrorNotice error={pick.error} />
              {report && <ResultPanel report={report} browser={!desktop} />}
            </form>
          )
        }
      </QueryView>
    </div>
  );
};
