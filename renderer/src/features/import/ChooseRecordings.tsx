/**
 * The first fieldset of the import's first step: the folders and files chosen so far, a path typed by
 * hand (checked on the disk before it is added), the system dialog in the desktop app, and the
 * built-in file browser.
 */
import { useRef, useState } from 'react';
import { ErrorNotice } from '../../components/Feedback';
import { FileBrowser } from '../../components/FileBrowser';
import { TextField } from '../../components/Form';
import { useAction, useCall, useRpc } from '../../lib/api';
import { parentFolder, type ImportChoice } from './import-choice';

/** What each part of the step is given: the choice, and a way to change part of it. */
export interface ChoiceParts {
  choice: ImportChoice;
  set: (patch: Partial<ImportChoice>) => void;
}

/** The desktop app's own file dialog (absent in browser mode), adding what it picks to the choice. */
export const useSystemDialog = ({ choice, set }: ChoiceParts) => {
  const info = useCall('app.info', {});
  const pick = useAction('files.pick');
  const choose = async (purpose: 'audio' | 'folder' | 'manifest') => {
    const r = await pick.run({ purpose });
    if (!r.ok || r.value.paths.length === 0) return;
    if (purpose === 'manifest') set({ manifestPath: r.value.paths[0]!, mapping: 'manifest' });
    else set({ paths: [...new Set([...choice.paths, ...r.value.paths])] });
  };
  return { native: info.data?.capabilities.nativeDialogs === true, choose, error: pick.error };
};
export type SystemDialog = ReturnType<typeof useSystemDialog>;

/**
 * The path box: adds the typed path when something is there (a folder, or a file in its folder), and
 * keeps the focus in the box for the next one; otherwise says so in a sentence.
 */
const useTypedPath = (add: (p: string) => void) => {
  const rpc = useRpc();
  const box = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const exists = async (p: string) => {
    if ((await rpc.call('files.list', { path: p })).ok) return true;
    const parent = parentFolder(p);
    const listed = parent === null ? null : await rpc.call('files.list', { path: parent });
    return listed?.ok === true && listed.value.entries.some((e) => e.kind === 'file' && e.path === p);
  };
  const addTyped = async () => {
    const p = typed.trim();
    if (!p) return;
    if (await exists(p)) {
      add(p);
      setTyped('');
      setProblem(null);
    } else
      setProblem(
        `Nothing is at ${p}: no folder or file of that name. Check the spelling, or find it in the browser below.`,
      );
    box.current?.focus();
  };
  const type = (text: string) => {
    setTyped(text);
    setProblem(null);
  };
  return { box, typed, type, problem, addTyped };
};

const ChosenPaths = ({ choice, set }: ChoiceParts) =>
  choice.paths.length > 0 ? (
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
  );

const PathEntry = ({
  add,
  onBrowse,
  dialog,
}: {
  add: (p: string) => void;
  /** Opens the file browser below at the typed path. */
  onBrowse: (p: string) => void;
  dialog: SystemDialog;
}) => {
  const path = useTypedPath(add);
  return (
    <div className="inline-form form path-entry">
      <TextField
        ref={path.box}
        label="Type a path"
        value={path.typed}
        onChange={(e) => path.type(e.target.value)}
        onKeyDown={(e) => {
          // Enter adds the path (it does not submit the whole form).
          if (e.key !== 'Enter') return;
          e.preventDefault();
          void path.addTyped();
        }}
        placeholder="/home/me/study/recordings"
        hint="A folder or a file on this computer. Enter adds it."
        error={path.problem}
      />
      <div className="row">
        <button type="button" disabled={!path.typed.trim()} onClick={() => void path.addTyped()}>
          Add path
        </button>
        <button type="button" disabled={!path.typed.trim()} onClick={() => onBrowse(path.typed.trim())}>
          Open in the browser below
        </button>
        {dialog.native && (
          <>
            <button type="button" onClick={() => void dialog.choose('folder')}>
              Choose a folder…
            </button>
            <button type="button" onClick={() => void dialog.choose('audio')}>
              Choose files…
            </button>
          </>
        )}
      </div>
    </div>
  );
};

export const ChooseRecordings = ({
  choice,
  set,
  problem,
  dialog,
}: ChoiceParts & { problem: string | undefined; dialog: SystemDialog }) => {
  const [browseAt, setBrowseAt] = useState<string | undefined>(
    () => choice.paths.at(-1) ?? (choice.manifestPath || undefined),
  );
  // A new key opens the browser afresh at `browseAt`.
  const [browserKey, setBrowserKey] = useState(0);
  const add = (p: string) => {
    if (!choice.paths.includes(p)) set({ paths: [...choice.paths, p] });
  };
  return (
    <fieldset>
      <legend>Recordings to import</legend>
      <p className="hint">
        Add folders (searched with their subfolders) or single files. With a manifest, the files it lists are
        imported even if you add nothing here.
      </p>
      <ChosenPaths choice={choice} set={set} />
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <PathEntry
        add={add}
        dialog={dialog}
        onBrowse={(p) => {
          setBrowseAt(p);
          setBrowserKey((k) => k + 1);
        }}
      />
      {dialog.error && <ErrorNotice error={dialog.error} />}
      <FileBrowser
        key={browserKey}
        chosen={choice.paths}
        manifestPath={choice.manifestPath || null}
        startAt={browseAt}
        onAdd={add}
        onUseManifest={(p) => set({ manifestPath: p, mapping: 'manifest' })}
      />
    </fieldset>
  );
};
