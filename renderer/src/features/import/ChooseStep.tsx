/**
 * Step 1 of the import: which files (built-in browser, a typed path, or the system dialog in the
 * desktop app), how they are matched to participants (a manifest, or a pattern in the file names),
 * the time zone of local times, the analyses the study's API version offers, and the conversion switch.
 */
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ANALYSIS_TYPES, analysisTypesFor, type ApiVersion } from '../../../../shared/api/vocabulary';
import { ErrorNotice } from '../../components/Feedback';
import { FileBrowser } from '../../components/FileBrowser';
import { Checkbox, TextField } from '../../components/Form';
import { useAction, useCall, useRpc } from '../../lib/api';
import { ANALYSIS_LABEL } from '../../lib/labels';
import { problemsOf, type ChoiceProblems, type ImportChoice } from './import-choice';

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
  const info = useCall('app.info', {});
  const pick = useAction('files.pick');
  const [typed, setTyped] = useState('');
  const [problems, setProblems] = useState<ChoiceProblems>({});
  const [browseAt, setBrowseAt] = useState<string | undefined>(
    () => choice.paths.at(-1) ?? (choice.manifestPath || undefined),
  );
  const [browserKey, setBrowserKey] = useState(0);
  const zoneList = useId();
  const allowed = analysisTypesFor(version);
  const set = (patch: Partial<ImportChoice>) => {
    onChange({ ...choice, ...patch });
    setProblems({});
  };
  const add = (p: string) => {
    if (!choice.paths.includes(p)) set({ paths: [...choice.paths, p] });
  };
  const native = info.data?.capabilities.nativeDialogs === true;
  const rpc = useRpc();
  const pathBox = useRef<HTMLInputElement>(null);
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  /**
   * Adds the typed path when something is there (a folder, or a file in its folder), and keeps the
   * focus in the box for the next one; otherwise says so in a sentence.
   */
  const addTyped = async () => {
    const p = typed.trim();
    if (!p) return;
    const asFolder = await rpc.call('files.list', { path: p });
    let found = asFolder.ok;
    if (!found) {
      const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
      const parent = cut > 0 ? p.slice(0, cut) : cut === 0 ? p.slice(0, 1) : null;
      const listed = parent === null ? null : await rpc.call('files.list', { path: parent });
      found = listed?.ok === true && listed.value.entries.some((e) => e.kind === 'file' && e.path === p);
    }
    if (found) {
      add(p);
      setTyped('');
      setTypedProblem(null);
    } else
      setTypedProblem(
        `Nothing is at ${p}: no folder or file of that name. Check the spelling, or find it in the browser below.`,
      );
    pathBox.current?.focus();
  };
  const missing = useMemo(() => ANALYSIS_TYPES.filter((t) => !allowed.includes(t)), [allowed]);

  const choose = async (purpose: 'audio' | 'folder' | 'manifest') => {
    const r = await pick.run({ purpose });
    if (!r.ok || r.value.paths.length === 0) return;
    if (purpose === 'manifest') set({ manifestPath: r.value.paths[0]!, mapping: 'manifest' });
    else set({ paths: [...new Set([...choice.paths, ...r.value.paths])] });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = problemsOf(choice);
    setProblems(p);
    if (Object.keys(p).length === 0) onPreview();
  };

  return (
    <form className="form import-choose" onSubmit={submit} noValidate>
      <fieldset>
        <legend>Recordings to import</legend>
        <p className="hint">
          Add folders (searched with their subfolders) or single files. With a manifest, the files it lists
          are imported even if you add nothing here.
        </p>
        {choice.paths.length > 0 ? (
          <ul className="chosen-paths" aria-label="Chosen for import">
            {choice.paths.map((p) => (
              <li key={p}>
                <code>{p}</code>{' '}
                <button
                  type="button"
                  className="link"
                  onClick={() => set({ paths: choice.paths.filter((x) => x !== p) })}
                  aria-label={`Remove ${p}`}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing added yet.</p>
        )}
        {problems.paths && (
          <p className="error-text" role="alert">
            {problems.paths}
          </p>
        )}
        <div className="inline-form form path-entry">
          <TextField
            ref={pathBox}
            label="Type a path"
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setTypedProblem(null);
            }}
            onKeyDown={(e) => {
              // Enter adds the path (it does not submit the whole form).
              if (e.key !== 'Enter') return;
              e.preventDefault();
              void addTyped();
            }}
            placeholder="/home/me/study/recordings"
            hint="A folder or a file on this computer. Enter adds it."
            error={typedProblem}
          />
          <div className="row">
            <button type="button" disabled={!typed.trim()} onClick={() => void addTyped()}>
              Add path
            </button>
            <button
              type="button"
              disabled={!typed.trim()}
              onClick={() => {
                setBrowseAt(typed.trim());
                setBrowserKey((k) => k + 1);
              }}
            >
              Open in the browser below
            </button>
            {native && (
              <>
                <button type="button" onClick={() => void choose('folder')}>
                  Choose a folder…
                </button>
                <button type="button" onClick={() => void choose('audio')}>
                  Choose files…
                </button>
              </>
            )}
          </div>
        </div>
        {pick.error && <ErrorNotice error={pick.error} />}
        <FileBrowser
          key={browserKey}
          chosen={choice.paths}
          manifestPath={choice.manifestPath || null}
          startAt={browseAt}
          onAdd={add}
          onUseManifest={(p) => set({ manifestPath: p, mapping: 'manifest' })}
        />
      </fieldset>

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
            {native && (
              <div className="row">
                <button type="button" onClick={() => void choose('manifest')}>
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
        <TextField
          label="Time zone of local times"
          value={choice.timeZone}
          list={zoneList}
          onChange={(e) => set({ timeZone: e.target.value })}
          error={problems.timeZone ?? null}
          hint="Dates without a zone (manifest, file names, dates stored in files) are read in this zone and stored in UTC. Your computer's zone is the default."
        />
        <datalist id={zoneList}>
          {ZONES.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </fieldset>

      <fieldset aria-describedby={problems.analyses ? 'analyses-error' : undefined}>
        <legend>Analyses to request (API {version})</legend>
        <div className="check-grid">
          {allowed.map((t) => (
            <Checkbox
              key={t}
              label={ANALYSIS_LABEL[t]}
              checked={choice.analyses.includes(t)}
              onChange={(v) =>
                set({
                  analyses: v
                    ? allowed.filter((x) => x === t || choice.analyses.includes(x))
                    : choice.analyses.filter((x) => x !== t),
                })
              }
            />
          ))}
        </div>
        {missing.length > 0 && (
          <p className="hint">
            API {version} does not offer {missing.map((t) => ANALYSIS_LABEL[t].toLowerCase()).join(' or ')}.
          </p>
        )}
        {problems.analyses && (
          <p id="analyses-error" className="error-text" role="alert">
            {problems.analyses}
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

      <fieldset>
        <legend>Conversion</legend>
        <Checkbox
          label="Convert stereo or low-rate WAV files to mono 16 kHz"
          checked={choice.convert}
          onChange={(v) => set({ convert: v })}
          hint="A converted copy is kept in Voicescope's workspace and uploaded instead; the original file is never changed. Without it, such files are refused."
        />
      </fieldset>

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
