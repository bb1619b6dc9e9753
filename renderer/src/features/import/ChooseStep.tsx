/**
 * Step 1 of the import: which files (built-in browser, a typed path, or the system dialog in the
 * desktop app), how they are matched to participants (a manifest, or a pattern in the file names),
 * the time zone of local times, the analyses the study's API version offers, and the conversion switch.
 */
import { useId, useState, type FormEvent } from 'react';
import { analysisTypesFor, type ApiVersion } from '../../../../shared/api/vocabulary';
import { ErrorNotice } from '../../components/Feedback';
import { Checkbox, TextField } from '../../components/Form';
import { useCall } from '../../lib/api';
import { ANALYSIS_LABEL } from '../../lib/labels';
import { ChooseRecordings, useSystemDialog, type ChoiceParts, type SystemDialog } from './ChooseRecordings';
import {
  analysesNotOffered,
  problemsOf,
  withAnalysis,
  type ChoiceProblems,
  type ImportChoice,
} from './import-choice';
import { CONVERT_SWITCH_LABEL } from './import-labels';

const ZONES: readonly string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

const Template = () => {
  const t = useCall('files.manifestTemplate', {}, { staleTime: Infinity });
  const [copied, setCopied] = useState(false);
  if (!t.data) return t.error ? <ErrorNotice error={t.error.appError} /> : null;
  const csv = t.data.csv;
  return (
    <details className="template">
      <summary>The manifest's format, and a template</summary>
      <p className="small">
        A CSV file with a header row: <code>file</code> (a path, relative to the manifest's folder),{' '}
        <code>participant</code> (the pseudonymous code), and optionally <code>recorded_at</code> (e.g.{' '}
        <code>2026-03-05 09:30</code> in the time zone below, or with Z or an offset) and <code>session</code>
        . Comma or semicolon.
      </p>
      <pre className="details" aria-label="Manifest template">
        {csv}
      </pre>
      <div className="row">
        <a
          className="button"
          href={`data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`}
          download="manifest-template.csv"
        >
          Download the template
        </a>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(csv).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          Copy the template
        </button>
        {copied && (
          <span role="status" className="muted small">
            Copied.
          </span>
        )}
      </div>
    </details>
  );
};

/** The manifest's path, or the file-name pattern, that gives each file its participant and date. */
const ParticipantsAndDates = ({
  choice,
  set,
  problems,
  dialog,
}: ChoiceParts & { problems: ChoiceProblems; dialog: SystemDialog }) => (
  <fieldset>
    <legend>Participants and dates come from</legend>
    <div className="radio-row">
      <label>
        <input
          type="radio"
          name="mapping"
          checked={choice.mapping === 'manifest'}
          onChange={() => set({ mapping: 'manifest' })}
        />{' '}
        A manifest (CSV file)
      </label>
      <label>
        <input
          type="radio"
          name="mapping"
          checked={choice.mapping === 'pattern'}
          onChange={() => set({ mapping: 'pattern' })}
        />{' '}
        A pattern in the file names
      </label>
    </div>
    {choice.mapping === 'manifest' ? (
      <>
        <TextField
          label="Manifest"
          value={choice.manifestPath}
          onChange={(e) => set({ manifestPath: e.target.value })}
          error={problems.manifest ?? null}
          placeholder="/home/me/study/manifest.csv"
          hint="Type its path, or choose “Use as manifest” beside a CSV file in the browser above."
        />
        {dialog.native && (
          <div className="row">
            <button type="button" onClick={() => void dialog.choose('manifest')}>
              Choose the manifest…
            </button>
          </div>
        )}
        <Template />
      </>
    ) : (
      <TextField
        label="File-name pattern"
        value={choice.pattern}
        onChange={(e) => set({ pattern: e.target.value })}
        error={problems.pattern ?? null}
        hint={
          <>
            Placeholders: <code>{'{participant}'}</code> (required), <code>{'{session}'}</code>,{' '}
            <code>{'{date:YYYYMMDD}'}</code> (any order of YYYY, MM, DD with separators),{' '}
            <code>{'{time:HHmm}'}</code>, and <code>*</code> for any text. Only the file's own name is
            matched; letter case does not matter.
          </>
        }
      />
    )}
    <TimeZoneField choice={choice} set={set} problem={problems.timeZone} />
  </fieldset>
);

const TimeZoneField = ({ choice, set, problem }: ChoiceParts & { problem: string | undefined }) => {
  const zoneList = useId();
  return (
    <>
      <TextField
        label="Time zone of local times"
        value={choice.timeZone}
        list={zoneList}
        onChange={(e) => set({ timeZone: e.target.value })}
        error={problem ?? null}
        hint="Dates without a zone (manifest, file names, dates stored in files) are read in this zone and stored in UTC. Your computer's zone is the default."
      />
      <datalist id={zoneList}>
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
};

/** The analyses this study's API version offers, and speaker isolation (v1.3 only). */
const AnalysesToRequest = ({
  choice,
  set,
  version,
  problem,
}: ChoiceParts & { version: ApiVersion; problem: string | undefined }) => {
  const offered = analysisTypesFor(version);
  const missing = analysesNotOffered(version);
  return (
    <fieldset aria-describedby={problem ? 'analyses-error' : undefined}>
      <legend>Analyses to request (API {version})</legend>
      <div className="check-grid">
        {offered.map((t) => (
          <Checkbox
            key={t}
            label={ANALYSIS_LABEL[t]}
            checked={choice.analyses.includes(t)}
            onChange={(v) => set({ analyses: withAnalysis(offered, choice.analyses, t, v) })}
          />
        ))}
      </div>
      {missing.length > 0 && (
        <p className="hint">
          API {version} does not offer {missing.map((t) => ANALYSIS_LABEL[t].toLowerCase()).join(' or ')}.
        </p>
      )}
      {problem && (
        <p id="analyses-error" className="error-text" role="alert">
          {problem}
        </p>
      )}
      <Checkbox
        label="Isolate the oldest speaker"
        checked={choice.isolate}
        disabled={version !== 'v1.3'}
        onChange={(v) => set({ isolate: v })}
        hint={
          version === 'v1.3'
            ? 'For recordings with more than one voice: only the oldest speaker is analysed. Recordings must then be at most 10 minutes, and that speaker needs 30 s of speech.'
            : 'Only API v1.3 can isolate a speaker; this study uses v1.2.'
        }
      />
    </fieldset>
  );
};

const Conversion = ({ choice, set }: ChoiceParts) => (
  <fieldset>
    <legend>Conversion</legend>
    <Checkbox
      label={CONVERT_SWITCH_LABEL}
      checked={choice.convert}
      onChange={(v) => set({ convert: v })}
      hint="A converted copy is kept in Voicescope's workspace and uploaded instead; the original file is never changed. Without it, such files are refused."
    />
  </fieldset>
);

export const ChooseStep = ({
  choice,
  onChange,
  version,
  onPreview,
}: {
  choice: ImportChoice;
  onChange: (c: ImportChoice) => void;
  version: ApiVersion;
  onPreview: () => void;
}) => {
  const [problems, setProblems] = useState<ChoiceProblems>({});
  // A change clears the problems: they are said again at the next "Preview".
  const set = (patch: Partial<ImportChoice>) => {
    onChange({ ...choice, ...patch });
    setProblems({});
  };
  const dialog = useSystemDialog({ choice, set });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = problemsOf(choice);
    setProblems(p);
    if (Object.keys(p).length === 0) onPreview();
  };

  return (
    <form className="form import-choose" onSubmit={submit} noValidate>
      <ChooseRecordings choice={choice} set={set} problem={problems.paths} dialog={dialog} />
      <ParticipantsAndDates choice={choice} set={set} problems={problems} dialog={dialog} />
      <AnalysesToRequest choice={choice} set={set} version={version} problem={problems.analyses} />
      <Conversion choice={choice} set={set} />
      {Object.keys(problems).length > 0 && (
        <p className="error-text" role="alert">
          Some choices are missing; see the messages above.
        </p>
      )}
      <div className="row wizard-nav">
        <button type="submit" className="primary">
          Preview the import
        </button>
        <span className="muted small">Nothing is written or sent until you confirm in step 3.</span>
      </div>
    </form>
  );
};
