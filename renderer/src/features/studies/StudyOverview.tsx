/** One study: its figures, its batches' progress, who is overdue, and its settings. */
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { Empty, ErrorNotice, QueryView } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { PageHeader, Section, Stat } from '../../components/Page';
import { BatchBars } from '../../components/Progress';
import { BatchTitle } from '../batches/BatchTitle';
import { batchStatus } from '../batches/batch-status';
import { useAction, useCall } from '../../lib/api';
import { agree, fmtDate, fmtDateTime, fmtInt, plural, theCount } from '../../lib/format';
import { paths } from '../../app/paths';
import { serviceName } from '../../lib/labels';
import { type Output } from '../../../../shared/contract';
import { Workstations } from '../team/Workstations';
import { useInTeam, useMay } from '../team/team-session';

const StudySettings = ({ studyId, name, interval }: { studyId: number; name: string; interval: number }) => {
  const [n, setN] = useState(name);
  const [i, setI] = useState(interval);
  const save = useAction('studies.update');
  return (
    <form
      className="form inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run({ studyId, name: n, sessionIntervalDays: i });
      }}
    >
      <TextField
        label="Study name"
        value={n}
        onChange={(e) => setN(e.target.value)}
        required
        maxLength={120}
      />
      <TextField
        label="Days between sessions"
        type="number"
        min={1}
        max={365}
        value={i}
        onChange={(e) => setI(Number(e.target.value))}
      />
      <div className="row">
        <button type="submit" disabled={save.pending}>
          Save
        </button>
      </div>
      <ErrorNotice error={save.error} />
    </form>
  );
};

type Study = Output<'studies.get'>;

/** The study's name, service and schedule, what can be done with it, and its figures. */
const StudyHeading = ({ s, studyId }: { s: Study; studyId: number }) => {
  const [, navigate] = useLocation();
  const mayImport = useMay('import');
  const mayExport = useMay('export');
  return (
    <>
      <PageHeader
        title={s.name}
        badge={s.simulated ? <SimulatedBadge long /> : undefined}
        subtitle={
          <>
            Service: {s.profileName ? serviceName({ name: s.profileName, apiVersion: s.apiVersion }) : 'none'}{' '}
            · sessions expected every {plural(s.sessionIntervalDays, 'day')}
          </>
        }
        actions={
          <>
            {mayImport && (
              <button type="button" className="primary" onClick={() => navigate(paths.study(studyId).import)}>
                Import recordings
              </button>
            )}
            {mayExport && (
              <button type="button" onClick={() => navigate(paths.study(studyId).export)}>
                Export
              </button>
            )}
          </>
        }
      />
      <div className="stats">
        <Stat label="Participants" value={fmtInt(s.participants)} />
        <Stat label="Recordings" value={fmtInt(s.recordings)} />
        <Stat label="Fully analysed" value={fmtInt(s.completedRecordings)} tone="ok" />
        <Stat
          label="Need you"
          value={fmtInt(s.needsAttention)}
          {...(s.needsAttention > 0 ? { tone: 'bad' as const } : {})}
        />
        <Stat
          label="Participants overdue"
          value={fmtInt(s.overdueParticipants)}
          {...(s.overdueParticipants > 0 ? { tone: 'warn' as const } : {})}
        />
        <Stat label="Last recording" value={fmtDate(s.lastRecordingAt)} />
      </div>
      {s.needsAttention > 0 && (
        <p>
          <Link href={paths.study(studyId).recordingsFiltered('needs_attention')}>
            Show {theCount(s.needsAttention, 'file')} that {agree(s.needsAttention, 'needs', 'need')} you
          </Link>
        </p>
      )}
    </>
  );
};

/** The study's four latest batches and their progress. */
const RecentBatches = ({ studyId }: { studyId: number }) => {
  const batches = useCall('batches.list', { studyId });
  return (
    <Section title="Batches" actions={<Link href={paths.study(studyId).batches}>All batches</Link>}>
      <QueryView q={batches}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="Nothing imported yet">
              <Link href={paths.study(studyId).import}>Import a folder of recordings</Link>
            </Empty>
          ) : (
            <ul className="batch-list">
              {[...list]
                .reverse()
                .slice(0, 4)
                .map((b) => (
                  <li key={b.batchId} className="card">
                    <BatchTitle studyId={studyId} b={b} />
                    <p className="muted small">
                      {fmtDateTime(b.createdAt)} · {plural(b.total, 'file')}
                    </p>
                    <p className="small">{batchStatus(b)}</p>
                    <BatchBars b={b} />
                  </li>
                ))}
            </ul>
          )
        }
      </QueryView>
    </Section>
  );
};

/** The participants longest overdue (eight at most), with the visits they missed. */
const OverdueParticipants = ({ studyId }: { studyId: number }) => {
  const overdue = useCall('participants.page', {
    studyId,
    filter: 'overdue',
    sort: 'last_recording',
    dir: 'asc',
    offset: 0,
    limit: 8,
  });
  return (
    <Section
      title="Overdue participants"
      actions={<Link href={paths.study(studyId).participantsFiltered('overdue')}>All overdue</Link>}
    >
      <QueryView q={overdue}>
        {(page) =>
          page.total === 0 ? (
            <p className="muted">No participant has missed a visit of the schedule.</p>
          ) : (
            <table className="table compact">
              <thead>
                <tr>
                  <th scope="col">Participant</th>
                  <th scope="col">Last recording</th>
                  <th scope="col">Missed visits</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">
                      <Link href={paths.study(studyId).participant(p.id)}>{p.code}</Link>
                    </th>
                    <td>
                      {fmtDate(p.lastRecordingAt)} ({plural(p.recency.daysSinceLast ?? 0, 'day')} ago)
                    </td>
                    <td>
                      <Badge tone={p.recency.missedVisits > 1 ? 'bad' : 'warn'}>
                        {fmtInt(p.recency.missedVisits)}
                      </Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryView>
    </Section>
  );
};

export const StudyOverview = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const study = useCall('studies.get', { studyId });
  const inTeam = useInTeam();
  const mayDesign = useMay('design');
  return (
    <div className="page">
      <QueryView q={study}>{(s) => <StudyHeading s={s} studyId={studyId} />}</QueryView>
      <RecentBatches studyId={studyId} />
      <OverdueParticipants studyId={studyId} />
      {inTeam && <Workstations studyId={studyId} />}
      {study.data && mayDesign && (
        <Section title="Study settings">
          <StudySettings
            key={`${study.data.name}-${study.data.sessionIntervalDays}`}
            studyId={studyId}
            name={study.data.name}
            interval={study.data.sessionIntervalDays}
          />
        </Section>
      )}
    </div>
  );
};
