/**
 * The built-in file browser: the main process lists one folder at a time (files.list), so it works in
 * browser mode where no system dialog exists, and on a folder of thousands of recordings. Folders open
 * on Enter; audio files and folders can be added, a CSV file can be used as the manifest. Every kind is
 * named in words (never by colour or icon alone).
 */
import { useId, useMemo, useState } from 'react';
import type { Output } from '../../../shared/contract';
import { useCall } from '../lib/api';
import { fmtBytes, fmtInt, plural } from '../lib/format';
import { Badge } from './Badges';
import { ErrorNotice, Loading } from './Feedback';

type Entry = Output<'files.list'>['entries'][number];

export interface FileBrowserProps {
  /** Paths already chosen for import (marked "Added"). */
  readonly chosen: readonly string[];
  readonly manifestPath: string | null;
  readonly onAdd: (path: string) => void;
  readonly onUseManifest: (path: string) => void;
  /** Where to open first (e.g. the folder of the last chosen path); the home folder otherwise. */
  readonly startAt?: string | undefined;
}

/** Shown at most; the filter narrows a larger folder. */
const SHOWN = 400;

const kindOf = (e: Entry) => (e.kind === 'dir' ? 'Folder' : e.audio ? 'Audio' : e.csv ? 'CSV' : 'Other');

export const FileBrowser = ({ chosen, manifestPath, onAdd, onUseManifest, startAt }: FileBrowserProps) => {
  const [path, setPath] = useState<string | undefined>(startAt);
  const [filter, setFilter] = useState('');
  const listing = useCall('files.list', path === undefined ? {} : { path }, { staleTime: 0 });
  const filterId = useId();
  const headingId = useId();
  const open = (p: string) => {
    setPath(p);
    setFilter('');
  };
  const data = listing.data;
  const entries = useMemo(() => {
    const all = data?.entries ?? [];
    const f = filter.trim().toLowerCase();
    return f ? all.filter((e) => e.name.toLowerCase().includes(f)) : all;
  }, [data, filter]);
  const audioHere = data?.entries.filter((e) => e.audio).length ?? 0;
  const chosenSet = new Set(chosen);
  /** Inside a folder already chosen: adding it again would change nothing. */
  const within = (p: string) =>
    chosen.some((c) => p !== c && (p.startsWith(`${c}/`) || p.startsWith(`${c}\\`)));

  return (
    <section className="file-browser" aria-labelledby={headingId}>
      <h3 id={headingId} className="fb-title">
        Browse this computer
      </h3>
      <div className="fb-bar">
        <button type="button" onClick={() => data?.parent && open(data.parent)} disabled={!data?.parent}>
          Up one folder
        </button>
        <button type="button" onClick={() => data && open(data.home)} disabled={!data}>
          Home folder
        </button>
        <p className="fb-path" aria-live="polite">
          <span className="sr-only">Current folder: </span>
          <code>{data?.path ?? path ?? '…'}</code>
        </p>
      </div>
      {listing.error && <ErrorNotice error={listing.error.appError} onRetry={() => void listing.refetch()} />}
      {listing.isPending && <Loading label="Reading the folder…" />}
      {data && (
        <>
          <div className="fb-actions">
            <button
              type="button"
              onClick={() => onAdd(data.path)}
              disabled={chosenSet.has(data.path) || within(data.path)}
            >
              {chosenSet.has(data.path)
                ? 'This folder is added'
                : within(data.path)
                  ? 'This folder is inside an added one'
                  : `Add this folder${audioHere ? ` (${plural(audioHere, 'audio file')} here, and its subfolders)` : ' and its subfolders'}`}
            </button>
            <label htmlFor={filterId} className="fb-filter">
              Show names containing{' '}
              <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
            </label>
          </div>
          {entries.length === 0 ? (
            <p className="muted">
              {filter
                ? `No name here contains “${filter}”.`
                : 'This folder is empty (hidden files are not shown).'}
            </p>
          ) : (
            // Focusable itself, so the keyboard can scroll it even when no entry has a button.
            <div className="fb-scroll" role="region" aria-label={`Contents of ${data.path}`} tabIndex={0}>
              <ul className="fb-list">
                {entries.slice(0, SHOWN).map((e) => (
                  <li key={e.path} className={`fb-entry fb-${kindOf(e).toLowerCase()}`}>
                    <Badge tone={e.kind === 'dir' ? 'info' : e.audio ? 'ok' : e.csv ? 'warn' : 'muted'}>
                      {kindOf(e)}
                    </Badge>
                    {e.kind === 'dir' ? (
                      <button
                        type="button"
                        className="link fb-name"
                        onClick={() => open(e.path)}
                        aria-label={`Open folder ${e.name}`}
                      >
                        {e.name}/
                      </button>
                    ) : (
                      <span className="fb-name">{e.name}</span>
                    )}
                    <span className="muted small fb-size">
                      {e.sizeBytes !== null ? fmtBytes(e.sizeBytes) : ''}
                    </span>
                    <span className="fb-do">
                      {(e.kind === 'dir' || e.audio) &&
                        (chosenSet.has(e.path) || within(e.path) ? (
                          <span className="muted small">
                            {chosenSet.has(e.path) ? 'Added' : 'In an added folder'}
                          </span>
                        ) : (
                          <button
                            type="button"
                            onClick={() => onAdd(e.path)}
                            aria-label={`Add ${e.kind === 'dir' ? 'folder' : 'file'} ${e.name}`}
                          >
                            Add
                          </button>
                        ))}
                      {e.csv &&
                        (manifestPath === e.path ? (
                          <span className="muted small">The manifest</span>
                        ) : (
                          <button
                            type="button"
                            onClick={() => onUseManifest(e.path)}
                            aria-label={`Use ${e.name} as the manifest`}
                          >
                            Use as manifest
                          </button>
                        ))}
                      {e.kind === 'file' && !e.audio && !e.csv && (
                        <span className="muted small">Not imported</span>
                      )}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {(entries.length > SHOWN || data.truncated) && (
            <p className="muted small">
              {entries.length > SHOWN
                ? `Showing ${fmtInt(SHOWN)} of ${fmtInt(entries.length)}; type part of a name to narrow the list. `
                : ''}
              {data.truncated
                ? 'This folder holds more entries than can be listed; adding the folder still imports all of them.'
                : ''}
            </p>
          )}
        </>
      )}
    </section>
  );
};
