/**
 * A study's participants: a virtualised, paged table (search, sort, recency filters) with each one's
 * account, counts and data recency; adding a participant and creating the missing service accounts.
 * Only a page of rows crosses IPC; the table asks for the pages in view.
 */
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import {
  PARTICIPANT_FILTERS,
  PARTICIPANT_SORTS,
  type ParticipantRow,
} from '../../../../shared/contract/participants.contract';
import { Badge } from '../../components/Badges';
import { preloadParticipantPage } from './participant-screen';
import { Empty, ErrorNotice, Notice } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Form';
import { PageHeader, TabLink } from '../../components/Page';
import { PagedTable, type Column } from '../../components/PagedTable';
import { RecencyBadge } from '../../components/RecencyBadge';
import { useAction, useCall } from '../../lib/api';
import { fmtDate, fmtInt, plural } from '../../lib/format';
import { CreateAccounts, UncertainAccounts } from './CreateAccounts';
import { SiteFilter } from '../team/SiteFilter';
import { useMay } from '../team/team-session';
import { useSiteLabel, type SiteLabel } from '../team/site-names';
import { useTableControls } from '../../lib/use-table-controls';
import { paths } from '../../app/paths';

type Filter = (typeof PARTICIPANT_FILTERS)[number];
type Sort = (typeof PARTICIPANT_SORTS)[number];

export const FILTER_LABEL: Record<Filter, string> = {
  all: 'All',
  overdue: 'Overdue',
  never: 'No usable recording',
  no_account: 'No account',
  needs_attention: 'Files need you',
};
const SORT_LABEL: Record<Sort, string> = {
  code: 'Code',
  recordings: 'Recordings',
  last_recording: 'Last recording',
  created: 'Added',
};

// Columns share the width in proportion down to a smallest width each (cells end in an ellipsis, with the full
// text as a title); below the sum (PARTICIPANT_TABLE_MIN) the table scrolls sideways inside itself, never the
// page (200 % zoom). "Added" is a sort only (its dates matter less than recency).
/** The sum of the columns' smallest widths, without and with a team study's site column. */
const PARTICIPANT_TABLE_MIN = '48.5rem';
const PARTICIPANT_TABLE_MIN_WITH_SITE = '54.5rem';

/** A team study's column: the participant's site, by its name. */
const siteColumn = (label: SiteLabel): Column<ParticipantRow> => ({
  key: 'site',
  header: 'Site',
  width: 'minmax(6rem, 5fr)',
  render: (p) => <span title={label(p.site)}>{label(p.site)}</span>,
});

const columns: readonly Column<ParticipantRow>[] = [
  {
    key: 'code',
    header: 'Code',
    width: 'minmax(5rem, 6fr)',
    sort: 'code',
    render: (p) => <strong title={p.code}>{p.code}</strong>,
  },
  {
    key: 'account',
    header: 'Account',
    width: 'minmax(5.5rem, 4fr)',
    render: (p) =>
      p.accountId ? (
        <span title={p.accountId}>
          <code>{p.accountId.slice(0, 8)}…</code>
        </span>
      ) : (
        <Badge tone="warn">None</Badge>
      ),
  },
  {
    key: 'recordings',
    header: 'Recordings',
    width: 'minmax(6.5rem, 5fr)',
    sort: 'recordings',
    align: 'right',
    render: (p) => fmtInt(p.recordings),
  },
  {
    key: 'completed',
    header: 'Analysed',
    width: 'minmax(5.5rem, 4fr)',
    align: 'right',
    render: (p) => (
      <span title="Recordings whose every requested analysis has completed">{fmtInt(p.completed)}</span>
    ),
  },
  {
    key: 'attention',
    header: 'Need you',
    width: 'minmax(5rem, 4fr)',
    align: 'right',
    render: (p) => (p.needsAttention > 0 ? <Badge tone="bad">{fmtInt(p.needsAttention)}</Badge> : '0'),
  },
  {
    key: 'last',
    header: 'Last recording',
    width: 'minmax(7rem, 7fr)',
    sort: 'last_recording',
    render: (p) => fmtDate(p.lastRecordingAt),
  },
  {
    key: 'recency',
    header: 'Recency',
    width: 'minmax(9rem, 10fr)',
    render: (p) => <RecencyBadge recency={p.recency} short />,
  },
  {
    key: 'notes',
    header: 'Notes',
    width: 'minmax(5rem, 4fr)',
    render: (p) => (
      <span className="muted" title={p.notes}>
        {p.notes}
      </span>
    ),
  },
];

const emptyTitle = (filter: Filter, query: string) =>
  query
    ? 'No match'
    : filter === 'all'
      ? 'No participants yet'
      : `Nobody: ${FILTER_LABEL[filter].toLowerCase()}`;
const emptyText = (filter: Filter, query: string, studyId: number) =>
  query ? (
    <p>
      No participant code contains “{query}”
      {filter !== 'all' ? ` among those shown under “${FILTER_LABEL[filter]}”` : ''}.
    </p>
  ) : filter === 'all' ? (
    <p>
      Add one below, or <Link href={paths.study(studyId).import}>import recordings</Link>: participants are
      created from the manifest or the file names.
    </p>
  ) : (
    <p>
      {filter === 'overdue'
        ? 'No participant has missed a visit of the schedule.'
        : filter === 'never'
          ? 'Everyone has at least one recording.'
          : filter === 'no_account'
            ? 'Every participant has a service account.'
            : 'No participant has files that need you.'}
    </p>
  );

const AddParticipant = ({ studyId }: { studyId: number }) => {
  const [code, setCode] = useState('');
  const create = useAction('participants.create');
  const fieldError =
    create.error?.code === 'VALIDATION' ? (create.error.issues?.[0]?.message ?? create.error.message) : null;
  return (
    <form
      className="form inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void create.run({ studyId, code }).then((r) => {
          if (r.ok) setCode('');
        });
      }}
    >
      <TextField
        label="New participant code"
        value={code}
        maxLength={64}
        onChange={(e) => setCode(e.target.value)}
        error={fieldError}
        hint="A pseudonymous study code, e.g. P-014. Never a name."
      />
      <div className="row">
        <button type="submit" disabled={create.pending || code.trim() === ''}>
          Add participant
        </button>
      </div>
      {create.error && create.error.code !== 'VALIDATION' && <ErrorNotice error={create.error} />}
      {create.value && !create.error && (
        <Notice tone="ok">
          Added <Link href={paths.study(studyId).participant(create.value.id)}>{create.value.code}</Link>. It
          has no service account yet.
        </Notice>
      )}
    </form>
  );
};

export const ParticipantsPage = () => {
  const params = useParams<{ id: string; filter?: string }>();
  const studyId = Number(params.id);
  const filter: Filter = (PARTICIPANT_FILTERS as readonly string[]).includes(params.filter ?? '')
    ? (params.filter as Filter)
    : 'all';
  const [, navigate] = useLocation();
  // A participant is likely opened next: their page's code is fetched while the list is read.
  useEffect(preloadParticipantPage, []);
  const { search, setSearch, query, sort, setSort, onSort, total, onTotal } = useTableControls<Sort>(
    filter === 'overdue' ? { by: 'last_recording', dir: 'asc' } : { by: 'code', dir: 'asc' },
  );
  const study = useCall('studies.get', { studyId });
  const at = paths.study(studyId);
  const [site, setSite] = useState<string | undefined>(undefined);
  // On a team study the account link is read by the workstations that send (owner and coordinators) only.
  const mayAccounts = useMay('createAccounts');
  const tabs = PARTICIPANT_FILTERS.filter((f) => f !== 'no_account' || mayAccounts);
  const siteLabel = useSiteLabel(studyId);
  const shown = useMemo(
    () => (siteLabel ? [columns[0]!, siteColumn(siteLabel), ...columns.slice(1)] : columns),
    [siteLabel],
  );

  return (
    <div className="page">
      <PageHeader
        title="Participants"
        subtitle={
          study.data ? (
            <>
              {study.data.name} · sessions expected every {plural(study.data.sessionIntervalDays, 'day')}
            </>
          ) : undefined
        }
        actions={<CreateAccounts studyId={studyId} />}
      />
      {study.error && <ErrorNotice error={study.error.appError} onRetry={() => void study.refetch()} />}
      <UncertainAccounts studyId={studyId} />

      <nav className="tabs" aria-label="Show participants">
        {tabs.map((f) => (
          <TabLink key={f} href={f === 'all' ? at.participants : at.participantsFiltered(f)}>
            {FILTER_LABEL[f]}
          </TabLink>
        ))}
      </nav>

      <div className="toolbar" role="search" aria-label="Find participants">
        <TextField
          label="Search codes"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="e.g. P-01"
          maxLength={200}
        />
        <SiteFilter studyId={studyId} site={site} onChange={setSite} />
        <SelectField
          label="Sort by"
          value={sort.by}
          onChange={(e) => setSort((s) => ({ ...s, by: e.target.value as Sort }))}
        >
          {PARTICIPANT_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABEL[s]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Order"
          value={sort.dir}
          onChange={(e) => setSort((s) => ({ ...s, dir: e.target.value as 'asc' | 'desc' }))}
        >
          <option value="asc">
            {sort.by === 'code' ? 'A to Z' : sort.by === 'recordings' ? 'Fewest first' : 'Oldest first'}
          </option>
          <option value="desc">
            {sort.by === 'code' ? 'Z to A' : sort.by === 'recordings' ? 'Most first' : 'Newest first'}
          </option>
        </SelectField>
        <p className="toolbar-count" role="status" aria-live="polite">
          {total === null
            ? ''
            : `${plural(total, 'participant')}${filter !== 'all' ? ` · ${FILTER_LABEL[filter].toLowerCase()}` : ''}${query ? ` matching “${query}”` : ''}`}
        </p>
      </div>

      {total === 0 && <Empty title={emptyTitle(filter, query)}>{emptyText(filter, query, studyId)}</Empty>}
      {/* The page says why the list is empty (empty={null}); the table stays mounted to learn the total of a new search or filter. */}
      <PagedTable
        method="participants.page"
        input={{
          studyId,
          filter,
          sort: sort.by,
          dir: sort.dir,
          ...(query ? { search: query } : {}),
          ...(site ? { site } : {}),
        }}
        columns={shown}
        minWidth={siteLabel ? PARTICIPANT_TABLE_MIN_WITH_SITE : PARTICIPANT_TABLE_MIN}
        label={`Participants${filter !== 'all' ? `: ${FILTER_LABEL[filter]}` : ''}. Arrow keys move, Enter opens.`}
        rowKey={(p) => p.id}
        onOpen={(p) => navigate(at.participant(p.id))}
        sort={sort}
        onSort={onSort}
        onTotal={onTotal}
        empty={null}
      />

      <section className="section" aria-labelledby="add-participant">
        <h2 id="add-participant">Add a participant</h2>
        <AddParticipant studyId={studyId} />
      </section>
    </div>
  );
};
