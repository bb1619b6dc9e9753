/** All studies at a glance: size, progress, what needs the researcher, who is overdue. */
import { Link, useLocation } from 'wouter';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { Empty, QueryView } from '../../components/Feedback';
import { TableScroll } from '../../components/TableScroll';
import { PageHeader } from '../../components/Page';
import { useCall } from '../../lib/api';
import { fmtDate, fmtInt } from '../../lib/format';
import { paths } from '../../app/paths';
import { serviceName } from '../../lib/labels';

export const StudiesPage = () => {
  const studies = useCall('studies.list', {});
  const [, navigate] = useLocation();
  return (
    <div className="page">
      <PageHeader
        title="Studies"
        actions={
          <button type="button" className="primary" onClick={() => navigate(paths.newStudy())}>
            New study
          </button>
        }
      />
      <QueryView q={studies} loading="Loading studies…">
        {(list) =>
          list.length === 0 ? (
            <Empty title="No study yet">
              <p>A study groups participants and their recordings, and sends them to one service profile.</p>
              <Link href={paths.newStudy()}>Create the first study</Link>
            </Empty>
          ) : (
            <TableScroll label="Studies table">
              <table className="table">
                <caption className="sr-only">Studies</caption>
                <thead>
                  <tr>
                    <th scope="col">Study</th>
                    <th scope="col">Service</th>
                    <th scope="col" className="right">
                      Participants
                    </th>
                    <th scope="col" className="right">
                      Recordings
                    </th>
                    <th scope="col" className="right">
                      Complete
                    </th>
                    <th scope="col">Needs you</th>
                    <th scope="col">Overdue</th>
                    <th scope="col">Last recording</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((s) => (
                    <tr key={s.id}>
                      <th scope="row">
                        <Link href={paths.study(s.id).overview}>{s.name}</Link>
                      </th>
                      <td>
                        {s.profileName ? serviceName({ name: s.profileName, apiVersion: s.apiVersion }) : '—'}{' '}
                        {s.simulated && <SimulatedBadge />}
                      </td>
                      <td className="right">{fmtInt(s.participants)}</td>
                      <td className="right">{fmtInt(s.recordings)}</td>
                      <td className="right">{fmtInt(s.completedRecordings)}</td>
                      <td>
                        {s.needsAttention > 0 ? (
                          <Badge tone="bad">{fmtInt(s.needsAttention)} files</Badge>
                        ) : (
                          <span className="muted">nothing</span>
                        )}
                      </td>
                      <td>
                        {s.overdueParticipants > 0 ? (
                          <Badge tone="warn">{fmtInt(s.overdueParticipants)} participants</Badge>
                        ) : (
                          <span className="muted">none</span>
                        )}
                      </td>
                      <td>{fmtDate(s.lastRecordingAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </QueryView>
    </div>
  );
};
