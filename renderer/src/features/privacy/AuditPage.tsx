/**
 * The audit log: exports, key changes, archives, deletions and diagnostic logging, newest first, a
 * page at a time from the main process. Entries cannot be changed or removed, and hold no API key, no
 * participant code and no file path.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { Empty, ErrorNotice, Loading } from '../../components/Feedback';
import { PageHeader } from '../../components/Page';
import { useCall } from '../../lib/api';
import { fmtDateTime, plural } from '../../lib/format';
import { AUDIT_LABEL, auditDetail } from './audit-labels';
import { paths } from '../../app/paths';

const PAGE = 50;

const AuditRows = ({ offset }: { offset: number }) => {
  const page = useCall('audit.list', { offset, limit: PAGE });
  if (!page.data) return null;
  return (
    <>
      {page.data.rows.map((e) => (
        <tr key={e.id}>
          <td className="nowrap">{fmtDateTime(e.at)}</td>
          <th scope="row">{AUDIT_LABEL[e.kind]}</th>
          <td>
            {e.subject ?? '—'}
            {e.studyId !== null ? (
              <span className="muted"> (study {e.studyId})</span>
            ) : e.profileId !== null ? (
              <span className="muted"> (profile {e.profileId})</span>
            ) : null}
          </td>
          <td>{auditDetail(e) || '—'}</td>
        </tr>
      ))}
    </>
  );
};

export const AuditPage = () => {
  const first = useCall('audit.list', { offset: 0, limit: PAGE });
  const [pages, setPages] = useState(1);
  return (
    <div className="page">
      <PageHeader
        title="Audit log"
        subtitle={
          <>
            What was exported, which API keys changed, which studies were archived or deleted. Entries cannot
            be changed or removed, and hold no API key, participant code or file path.{' '}
            <Link href={paths.privacy}>Privacy settings</Link>
          </>
        }
      />
      {first.error ? (
        <ErrorNotice error={first.error.appError} onRetry={() => void first.refetch()} />
      ) : !first.data ? (
        <Loading />
      ) : first.data.total === 0 ? (
        <Empty title="Nothing recorded yet.">
          Exports, key changes, archives and deletions will be listed here.
        </Empty>
      ) : (
        <>
          <table className="table audit-table">
            <caption>{plural(first.data.total, 'entry', 'entries')}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Study or profile</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: pages }, (_, i) => (
                <AuditRows key={i} offset={i * PAGE} />
              ))}
            </tbody>
          </table>
          {pages * PAGE < first.data.total && (
            <div className="row">
              <button type="button" onClick={() => setPages(pages + 1)}>
                Show {Math.min(PAGE, first.data.total - pages * PAGE)} older entries
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
};
