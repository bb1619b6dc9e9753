/**
 * Who is connected: every workstation on the study database, the member running it, when it was last
 * seen (by the database's clock), what of this study it holds still waiting to be sent, and what it
 * is sending now.
 */
import { Badge } from '../../components/Badges';
import { QueryView } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { TableScroll } from '../../components/TableScroll';
import { useCall } from '../../lib/api';
import { fmtDateTime, fmtInt } from '../../lib/format';

export const Workstations = ({ studyId }: { studyId: number }) => {
  const q = useCall('team.workstations', { studyId });
  return (
    <Section title="Workstations">
      <QueryView q={q}>
        {({ rows, leaseSeconds }) =>
          rows.length === 0 ? (
            <p className="muted">No workstation has opened this study database yet.</p>
          ) : (
            <TableScroll label="Workstations">
              <table className="table compact">
                <caption>
                  Each workstation sends the files it holds. One not seen for {leaseSeconds} s is away: what
                  it holds waits for it.
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Workstation</th>
                    <th scope="col">Member</th>
                    <th scope="col">Last seen</th>
                    <th scope="col" className="right">
                      Waiting to be sent
                    </th>
                    <th scope="col" className="right">
                      Sending now
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((w) => (
                    <tr key={w.name}>
                      <th scope="row">{w.name}</th>
                      <td>{w.login ?? '—'}</td>
                      <td>
                        {w.here ? <Badge tone="ok">connected</Badge> : <Badge tone="warn">away</Badge>}{' '}
                        {fmtDateTime(w.lastSeenAt)}
                      </td>
                      <td className="right">{fmtInt(w.waiting)}</td>
                      <td className="right">{fmtInt(w.sending)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </QueryView>
    </Section>
  );
};
