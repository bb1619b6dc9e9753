/**
 * A study's design: its period and time zone, the visit schedule, each participant's status
 * and baseline, each recording's visit (with where it came from, and the researcher's override), and
 * the completeness table (visits x missing-data codes).
 */
import { useState } from 'react';
import { useParams } from 'wouter';
import { LIMITS } from '../../../../shared/contract/bounds';
import type { StudyDesignView } from '../../../../shared/contract/visits.contract';
import { MISSING_REASONS } from '../../../../shared/missing-data';
import { PARTICIPANT_STATUSES, type ParticipantStatus } from '../../../../shared/states';
import { Badge } from '../../components/Badges';
import { ReasonField, useReason } from '../../components/Curation';
import { Empty, ErrorNotice, QueryView } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Form';
import { PageHeader, Section } from '../../components/Page';
import { TableScroll } from '../../components/TableScroll';
import { useAction, useCall } from '../../lib/api';
import { PARTICIPANT_STATUS, VISIT_SOURCE } from '../../lib/labels';

const today = () => new Date().toISOString().slice(0, 10);

const PeriodForm = ({ d }: { d: StudyDesignView }) => {
  const [start, setStart] = useState(d.startDate ?? '');
  const [end, setEnd] = useState(d.endDate ?? '');
  const [tz, setTz] = useState(d.timeZone);
  const save = useAction('visits.setPeriod');
  return (
    <form
      className="form inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run({ studyId: d.studyId, startDate: start || null, endDate: end || null, timeZone: tz });
      }}
    >
      <TextField label="Study starts" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
      <TextField label="Study ends" type="date" value={end} onChange={(e) => setEnd(e.target.value)} />
      <TextField
        label="Time zone of the study's days"
        value={tz}
        maxLength={64}
        onChange={(e) => setTz(e.target.value)}
      />
      <div className="row">
        <button type="submit" disabled={save.pending}>
          Save period
        </button>
      </div>
      <ErrorNotice error={save.error} />
    </form>
  );
};

interface Row {
  name: string;
  targetDay: number;
  windowBefore: number;
  windowAfter: number;
}

const ScheduleForm = ({ d }: { d: StudyDesignView }) => {
  const [rows, setRows] = useState<Row[]>(
    d.visits.map(({ name, targetDay, windowBefore, windowAfter }) => ({
      name,
      targetDay,
      windowBefore,
      windowAfter,
    })),
  );
  const save = useAction('visits.setSchedule');
  const edit = (i: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const num = (v: string) => (v === '' ? 0 : Math.trunc(Number(v)));
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run({ studyId: d.studyId, visits: rows });
      }}
    >
      <TableScroll label="Visit schedule">
        <table className="table compact schedule-table">
          <caption className="muted small">
            Target day counts from each participant&apos;s baseline (day 0); a recording whose session label
            names a visit goes to it, otherwise one whose date falls in a window.
          </caption>
          <thead>
            <tr>
              <th scope="col">Visit</th>
              <th scope="col">Target day</th>
              <th scope="col">Days before</th>
              <th scope="col">Days after</th>
              <th scope="col">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td>
                  <input
                    aria-label={`Visit ${i + 1} name`}
                    className="name-input"
                    value={r.name}
                    maxLength={200}
                    onChange={(e) => edit(i, { name: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Visit ${i + 1} target day`}
                    type="number"
                    className="number-input"
                    value={r.targetDay}
                    onChange={(e) => edit(i, { targetDay: num(e.target.value) })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Visit ${i + 1} days before`}
                    type="number"
                    className="number-input"
                    min={0}
                    value={r.windowBefore}
                    onChange={(e) => edit(i, { windowBefore: num(e.target.value) })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Visit ${i + 1} days after`}
                    type="number"
                    className="number-input"
                    min={0}
                    value={r.windowAfter}
                    onChange={(e) => edit(i, { windowAfter: num(e.target.value) })}
                  />
                </td>
                <td>
                  <button type="button" onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <div className="row">
        <button
          type="button"
          onClick={() =>
            setRows((rs) => {
              const last = rs.at(-1);
              return [
                ...rs,
                {
                  name: rs.length === 0 ? 'Baseline' : `Week ${rs.length}`,
                  targetDay: last ? last.targetDay + 7 : 0,
                  windowBefore: last ? 2 : 0,
                  windowAfter: 2,
                },
              ];
            })
          }
        >
          Add a visit
        </button>
        <button type="submit" className="primary" disabled={save.pending}>
          Save schedule
        </button>
      </div>
      <ErrorNotice error={save.error} />
    </form>
  );
};

const Completeness = ({ studyId }: { studyId: number }) => {
  const c = useCall('visits.completeness', { studyId });
  return (
    <QueryView q={c}>
      {(t) =>
        t.lines.length === 0 ? (
          <Empty title="No visits yet">
            Set a schedule above to see which visits are present or missing.
          </Empty>
        ) : (
          <>
            {/* Above the table, not its caption: a caption is as wide as the table and scrolls with it. */}
            <p className="muted small">
              On {t.today}, {t.participants} participants. Each expected visit is present (a usable recording)
              or missing for one reason; the same table is completeness.csv in the export.
            </p>
            <TableScroll label="Completeness by visit">
              <table className="table compact">
                <caption className="sr-only">Completeness by visit</caption>
                <thead>
                  <tr>
                    <th scope="col">Visit</th>
                    <th scope="col">Expected</th>
                    <th scope="col">Present</th>
                    {MISSING_REASONS.map((m) => (
                      <th scope="col" key={m.code} title={m.meaning}>
                        {m.label} <span className="nowrap">({m.code})</span>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {t.lines.map((l) => (
                    <tr key={l.visitId}>
                      <th scope="row">{l.visit}</th>
                      <td>{l.expected}</td>
                      <td>{l.present}</td>
                      {MISSING_REASONS.map((m) => (
                        <td key={m.code}>{l.missing[m.reason] || ''}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )
      }
    </QueryView>
  );
};

const StatusForm = ({ participantId, code }: { participantId: number; code: string }) => {
  const [status, setStatus] = useState<ParticipantStatus>('active');
  const [on, setOn] = useState(today());
  const reason = useReason(status === 'withdrawn');
  const save = useAction('visits.setStatus');
  return (
    <form
      className="form inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason.check()) return;
        void save.run({ participantId, status, on, ...(reason.given ? { reason: reason.given } : {}) });
      }}
    >
      <SelectField
        label={`New status of ${code}`}
        value={status}
        onChange={(e) => setStatus(e.target.value as ParticipantStatus)}
      >
        {PARTICIPANT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {PARTICIPANT_STATUS[s].label}
          </option>
        ))}
      </SelectField>
      <TextField label="From" type="date" value={on} required onChange={(e) => setOn(e.target.value)} />
      <ReasonField
        {...reason.field}
        label="Reason"
        hint={status === 'withdrawn' ? 'A withdrawal needs its reason.' : undefined}
        maxLength={LIMITS.label}
      />
      <div className="row">
        <button type="submit" disabled={save.pending}>
          Change status
        </button>
      </div>
      <ErrorNotice error={save.error} />
    </form>
  );
};

const ParticipantVisits = ({ participantId, d }: { participantId: number; d: StudyDesignView }) => {
  const v = useCall('visits.participant', { participantId });
  const assign = useAction('visits.setAssignment');
  return (
    <QueryView q={v}>
      {(p) => (
        <>
          <p>
            Baseline:{' '}
            {p.status.baseline
              ? `${p.status.baseline.date} (${p.status.baseline.source.replace('_', ' ')})`
              : 'none yet'}
          </p>
          <StatusForm participantId={participantId} code={p.status.code} />
          {p.recordings.length === 0 ? (
            <p className="muted">No recordings yet.</p>
          ) : (
            <TableScroll label="Recordings and their visits">
              <table className="table compact">
                <thead>
                  <tr>
                    <th scope="col">Recording</th>
                    <th scope="col">Date</th>
                    <th scope="col">Session</th>
                    <th scope="col">Day</th>
                    <th scope="col">Visit</th>
                    <th scope="col">From</th>
                    <th scope="col">Values</th>
                  </tr>
                </thead>
                <tbody>
                  {p.recordings.map((r) => (
                    <tr key={r.recordingId}>
                      <th scope="row">#{r.recordingId}</th>
                      <td className="nowrap">{r.date}</td>
                      <td>{r.session ?? '—'}</td>
                      <td>{r.daysSinceBaseline ?? '—'}</td>
                      <td>
                        <select
                          aria-label={`Visit of recording ${r.recordingId}`}
                          value={r.source === 'researcher' ? String(r.visitId ?? 'none') : 'rules'}
                          disabled={assign.pending}
                          onChange={(e) => {
                            const x = e.target.value;
                            void assign.run(
                              x === 'rules'
                                ? { recordingId: r.recordingId, clear: true }
                                : { recordingId: r.recordingId, visitId: x === 'none' ? null : Number(x) },
                            );
                          }}
                        >
                          <option value="rules">
                            By the rules: {r.source === 'researcher' ? '…' : (r.visit ?? 'no visit')}
                          </option>
                          <option value="none">No visit</option>
                          {d.visits.map((x) => (
                            <option key={x.id} value={String(x.id)}>
                              {x.name}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td>{VISIT_SOURCE[r.source]}</td>
                      <td>
                        {r.afterWithdrawal && (
                          <>
                            <Badge
                              tone="bad"
                              title="Dated after the participant withdrew: not an ordinary visit"
                            >
                              after withdrawal
                            </Badge>{' '}
                          </>
                        )}
                        {r.usable ? (
                          <Badge tone="ok">usable</Badge>
                        ) : r.reason ? (
                          <Badge tone="warn" title={r.detail ?? ''}>
                            {MISSING_REASONS.find((m) => m.reason === r.reason)!.label}
                          </Badge>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          <ErrorNotice error={assign.error} />
        </>
      )}
    </QueryView>
  );
};

const Participants = ({ d }: { d: StudyDesignView }) => {
  const list = useCall('visits.statuses', { studyId: d.studyId });
  const [open, setOpen] = useState<number | null>(null);
  return (
    <QueryView q={list}>
      {(rows) =>
        rows.length === 0 ? (
          <Empty title="No participants yet" />
        ) : (
          <>
            <TableScroll label="Participants: status and baseline">
              <table className="table compact">
                <thead>
                  <tr>
                    <th scope="col">Participant</th>
                    <th scope="col">Status</th>
                    <th scope="col">Since</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Baseline</th>
                    <th scope="col">
                      <span className="sr-only">Open</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((p) => (
                    <tr key={p.participantId}>
                      <th scope="row">{p.code}</th>
                      <td>
                        <Badge tone={PARTICIPANT_STATUS[p.status].tone}>
                          {PARTICIPANT_STATUS[p.status].label}
                        </Badge>
                      </td>
                      <td className="nowrap">{p.statusOn ?? '—'}</td>
                      <td>{p.statusReason ?? ''}</td>
                      <td className="nowrap">{p.baseline?.date ?? '—'}</td>
                      <td>
                        <button
                          type="button"
                          onClick={() => setOpen(open === p.participantId ? null : p.participantId)}
                        >
                          {open === p.participantId ? 'Close' : 'Status and visits'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            {open !== null && <ParticipantVisits participantId={open} d={d} />}
          </>
        )
      }
    </QueryView>
  );
};

export const DesignPage = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const design = useCall('visits.design', { studyId });
  return (
    <div className="page">
      <PageHeader
        title="Study design"
        subtitle="The study's period, its visit schedule, participants' status and which visits are present or missing."
      />
      <QueryView q={design}>
        {(d) => (
          <>
            <Section title="Period">
              <PeriodForm key={`${d.startDate}-${d.endDate}-${d.timeZone}`} d={d} />
            </Section>
            <Section title="Visit schedule">
              <ScheduleForm key={d.visits.map((v) => `${v.id}:${v.targetDay}`).join()} d={d} />
            </Section>
            <Section title="Completeness">
              <Completeness studyId={studyId} />
            </Section>
            <Section title="Participants">
              <Participants d={d} />
            </Section>
          </>
        )}
      </QueryView>
    </div>
  );
};
