/**
 * A study's recordings: a virtualised table paged and sorted in the main process (100,000 rows stay
 * fast), filtered by what needs doing, searched by participant, file or session, each file that needs
 * the researcher saying what happened and what to do. A row opens the recording.
 */
import { useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { RECORDING_FILTERS, RECORDING_SORTS } from '../../../../shared/contract/recordings.contract';
import { SimulatedBadge } from '../../components/Badges';
import { ErrorNotice } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Form';
import { PageHeader, TabLink } from '../../components/Page';
import { PagedTable } from '../../components/PagedTable';
import { useCall } from '../../lib/api';
import { plural } from '../../lib/format';
import { useTableControls } from '../../lib/use-table-controls';
import { QueueBanner } from '../batches/QueueBanner';
import { SiteFilter } from '../team/SiteFilter';
import { recordingColumns } from './recording-columns';
import { paths } from '../../app/paths';

export type RecordingFilter = (typeof RECORDING_FILTERS)[number];
export type RecordingSort = (typeof RECORDING_SORTS)[number];

export const FILTER_LABEL: Record<RecordingFilter, string> = {
  all: 'All',
  needs_attention: 'Need you',
  in_progress: 'In progress',
  completed: 'Completed',
  uncertain: 'Outcome unknown',
  refused: 'Refused',
  duplicates: 'Duplicates',
};
export const SORT_LABEL: Record<RecordingSort, string> = {
  recorded_at: 'Recorded at',
  participant: 'Participant',
  file: 'File',
  state: 'Upload state',
  id: 'Import order',
};

export const EMPTY: Record<RecordingFilter, string> = {
  all: 'No recordings yet.',
  needs_attention: 'Nothing needs you: no refused, uncertain or held files, and no failed or late analyses.',
  in_progress: 'Nothing is waiting, being sent or being analysed.',
  completed: 'No recording is fully analysed yet.',
  uncertain: 'No upload has an unknown outcome.',
  refused: 'No file was refused, locally or by the service.',
  duplicates: 'No duplicate is held back.',
};

export const isFilter = (f: string | undefined): f is RecordingFilter =>
  (RECORDING_FILTERS as readonly string[]).includes(f ?? '');

/** Search, sort and order, with the count of what is shown. */
export const RecordingToolbar = ({
  search,
  onSearch,
  sort,
  onSort,
  total,
  label,
  children,
}: {
  /** More filters, after the search (a team study's site). */
  children?: ReactNode;
  search: string;
  onSearch: (s: string) => void;
  sort: { by: RecordingSort; dir: 'asc' | 'desc' };
  onSort: (s: { by: RecordingSort; dir: 'asc' | 'desc' }) => void;
  total: number | null;
  label: string;
}) => (
  <div className="toolbar" role="search" aria-label={`Find ${label}`}>
    <TextField
      label="Search participant, file or session"
      type="search"
      value={search}
      onChange={(e) => onSearch(e.target.value)}
      placeholder="e.g. P-014 or week 3"
      maxLength={200}
    />
    {children}
    <SelectField
      label="Sort by"
      value={sort.by}
      onChange={(e) => onSort({ ...sort, by: e.target.value as RecordingSort })}
    >
      {RECORDING_SORTS.map((s) => (
        <option key={s} value={s}>
          {SORT_LABEL[s]}
        </option>
      ))}
    </SelectField>
    <SelectField
      label="Order"
      value={sort.dir}
      onChange={(e) => onSort({ ...sort, dir: e.target.value as 'asc' | 'desc' })}
    >
      <option value="asc">{sort.by === 'recorded_at' || sort.by === 'id' ? 'Oldest first' : 'A to Z'}</option>
      <option value="desc">
        {sort.by === 'recorded_at' || sort.by === 'id' ? 'Newest first' : 'Z to A'}
      </option>
    </SelectField>
    <p className="toolbar-count" role="status" aria-live="polite">
      {total === null ? '' : plural(total, 'recording')}
    </p>
  </div>
);

export const RecordingsPage = () => {
  const params = useParams<{ id: string; filter?: string }>();
  const studyId = Number(params.id);
  const filter: RecordingFilter = isFilter(params.filter) ? params.filter : 'all';
  const [, navigate] = useLocation();
  const { search, setSearch, query, sort, setSort, onSort, total, onTotal } = useTableControls<RecordingSort>(
    { by: 'recorded_at', dir: 'desc' },
  );
  const study = useCall('studies.get', { studyId });
  const at = paths.study(studyId);
  const [site, setSite] = useState<string | undefined>(undefined);

  return (
    <div className="page">
      <PageHeader
        title="Recordings"
        badge={study.data?.simulated ? <SimulatedBadge long /> : undefined}
        subtitle={
          study.data ? (
            <>
              {study.data.name} · <Link href={paths.study(studyId).batches}>batches</Link> ·{' '}
              <Link href={paths.study(studyId).import}>import more</Link>
            </>
          ) : undefined
        }
      />
      {study.error && <ErrorNotice error={study.error.appError} onRetry={() => void study.refetch()} />}
      {study.data?.profileId != null && <QueueBanner profileId={study.data.profileId} />}
      <nav className="tabs" aria-label="Show recordings">
        {RECORDING_FILTERS.map((f) => (
          <TabLink key={f} href={f === 'all' ? at.recordings : at.recordingsFiltered(f)}>
            {FILTER_LABEL[f]}
          </TabLink>
        ))}
      </nav>
      <RecordingToolbar
        search={search}
        onSearch={setSearch}
        sort={sort}
        onSort={setSort}
        total={total}
        label="recordings"
      >
        <SiteFilter studyId={studyId} site={site} onChange={setSite} />
      </RecordingToolbar>
      <PagedTable
        minWidth="67.75rem"
        method="recordings.page"
        input={{
          studyId,
          filter,
          sort: sort.by,
          dir: sort.dir,
          ...(query ? { search: query } : {}),
          ...(site ? { site } : {}),
        }}
        columns={recordingColumns({ batch: true })}
        label={`Recordings${filter !== 'all' ? `: ${FILTER_LABEL[filter]}` : ''}. Arrow keys move, Enter opens the recording.`}
        rowKey={(r) => r.id}
        onOpen={(r) => navigate(at.recording(r.id))}
        sort={sort}
        onSort={onSort}
        onTotal={onTotal}
        empty={
          query ? (
            <>No participant, file or session contains “{query}”.</>
          ) : filter === 'all' ? (
            <>
              No recordings yet. <Link href={paths.study(studyId).import}>Import a folder of recordings</Link>
              .
            </>
          ) : (
            EMPTY[filter]
          )
        }
      />
    </div>
  );
};
