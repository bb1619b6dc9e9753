/**
 * Credits and uploads remaining per service profile: the service's latest answer (read again on
 * request), how it moved over time, and what each study has spent or holds in the queue.
 */
import { useState } from 'react';
import type { ProfileView } from '../../../../shared/contract/profiles.contract';
import { SimulatedBadge } from '../../components/Badges';
import { Empty, ErrorNotice, QueryView } from '../../components/Feedback';
import { SelectField } from '../../components/Form';
import { PageHeader, Section, Stat } from '../../components/Page';
import { useAction, useCall } from '../../lib/api';
import { fmtDateTime, fmtInt, plural } from '../../lib/format';
import { serviceName } from '../../lib/labels';

/** One reading (or several within the same minute, with the same value): a point with its value and time. */
const OneReading = ({ p }: { p: { at: string; uploadsRemaining: number } }) => (
  <figure className="history history-one">
    <svg
      viewBox="0 0 480 80"
      width="100%"
      height={80}
      role="img"
      aria-label={`One reading: ${plural(p.uploadsRemaining, 'upload')} remaining on ${fmtDateTime(p.at)}`}
    >
      <circle cx={240} cy={40} r={6} className="history-point" />
      <text x={252} y={45} className="history-label">
        {plural(p.uploadsRemaining, 'upload')} remaining
      </text>
    </svg>
    <figcaption className="muted small">
      One reading so far, {fmtDateTime(p.at)}; the line appears with the next reading.
    </figcaption>
  </figure>
);

/** Uploads remaining over time, as a small line (an SVG: a handful of points needs no chart library). */
const History = ({ points }: { points: readonly { at: string; uploadsRemaining: number }[] }) => {
  if (points.length === 0) return <p className="muted">The history appears after a few readings.</p>;
  const first = points[0]!;
  if (
    points.every(
      (p) => fmtDateTime(p.at) === fmtDateTime(first.at) && p.uploadsRemaining === first.uploadsRemaining,
    )
  )
    return <OneReading p={points.at(-1)!} />;
  const w = 480,
    h = 80;
  const max = Math.max(...points.map((p) => p.uploadsRemaining), 1);
  const t0 = Date.parse(points[0]!.at),
    t1 = Math.max(Date.parse(points.at(-1)!.at), t0 + 1);
  const d = points
    .map(
      (p, i) =>
        `${i ? 'L' : 'M'}${((Date.parse(p.at) - t0) / (t1 - t0)) * w},${h - (p.uploadsRemaining / max) * (h - 4) - 2}`,
    )
    .join(' ');
  return (
    <figure className="history">
      <svg
        viewBox={`0 0 ${w} ${h}`}
        width="100%"
        height={h}
        role="img"
        aria-label={`Uploads remaining fell from ${points[0]!.uploadsRemaining} to ${points.at(-1)!.uploadsRemaining} between ${fmtDateTime(points[0]!.at)} and ${fmtDateTime(points.at(-1)!.at)}`}
      >
        <path d={d} className="history-line" />
      </svg>
      <figcaption className="muted small">
        Uploads remaining, {fmtDateTime(points[0]!.at)} to {fmtDateTime(points.at(-1)!.at)}
      </figcaption>
    </figure>
  );
};

const ProfileUsage = ({ profile }: { profile: ProfileView }) => {
  const overview = useCall('usage.overview', { profileId: profile.id });
  const read = useAction('usage.read');
  return (
    <>
      <div className="row">
        <button
          type="button"
          onClick={() => void read.run({ profileId: profile.id })}
          disabled={read.pending || !profile.hasKey}
        >
          {read.pending ? 'Asking the service…' : 'Read usage now'}
        </button>
        {!profile.hasKey && <span className="muted">This profile has no API key (Settings).</span>}
      </div>
      <ErrorNotice error={read.error} />
      <QueryView q={overview}>
        {(o) => (
          <>
            {o.latest ? (
              <>
                <p className="muted">
                  As the service reported at {fmtDateTime(o.latest.at)}
                  {profile.isSandbox && (
                    <>
                      {' '}
                      · <SimulatedBadge />
                    </>
                  )}
                </p>
                <div className="stats">
                  <Stat
                    label="Uploads remaining"
                    value={fmtInt(o.latest.usage.uploadsRemaining)}
                    {...(o.latest.usage.uploadsRemaining < 10 ? { tone: 'warn' as const } : {})}
                  />
                  {o.latest.usage.detail.kind === 'credits' ? (
                    <>
                      <Stat
                        label={`Trial (of ${fmtInt(o.latest.usage.detail.trialGranted)}), used first`}
                        value={fmtInt(o.latest.usage.detail.trialRemaining)}
                      />
                      <Stat
                        label={`Included this period (of ${fmtInt(o.latest.usage.detail.includedGranted)})`}
                        value={fmtInt(o.latest.usage.detail.includedRemaining)}
                      />
                      <Stat
                        label="Purchased (roll over)"
                        value={fmtInt(o.latest.usage.detail.purchasedRemaining)}
                      />
                      <Stat label="Tier" value={o.latest.usage.detail.tier ?? '—'} />
                    </>
                  ) : (
                    <Stat
                      label="Uploads used this billing period"
                      value={`${fmtInt(o.latest.usage.detail.used)} of ${fmtInt(o.latest.usage.detail.limit)}`}
                    />
                  )}
                </div>
              </>
            ) : (
              <Empty title="No reading yet">Read the usage to see the credits left.</Empty>
            )}
            <History points={o.history} />
            {o.studies.length > 0 && (
              <table className="table compact">
                <caption>
                  By study (one credit per accepted upload is assumed; the specification does not say)
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Study</th>
                    <th scope="col" className="right">
                      Accepted uploads
                    </th>
                    <th scope="col" className="right">
                      Outcome unknown
                    </th>
                    <th scope="col" className="right">
                      Waiting to send
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {o.studies.map((s) => (
                    <tr key={s.studyId}>
                      <th scope="row">{s.name}</th>
                      <td className="right">{fmtInt(s.uploadsAccepted)}</td>
                      <td className="right">{fmtInt(s.uploadsUncertain)}</td>
                      <td className="right">{fmtInt(s.queued)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </QueryView>
    </>
  );
};

export const UsagePage = () => {
  const profiles = useCall('profiles.list', {});
  const [chosen, setChosen] = useState<number | null>(null);
  return (
    <div className="page">
      <PageHeader
        title="Usage and credits"
        subtitle="v1.3 uses trial credits first, then included, then purchased; v1.2 counts uploads against a limit per billing period."
      />
      <QueryView q={profiles}>
        {(list) => {
          if (list.length === 0) return <Empty title="No service profile yet" />;
          const profile = list.find((p) => p.id === chosen) ?? list[0]!;
          return (
            <>
              {list.length > 1 && (
                <SelectField
                  label="Service profile"
                  value={profile.id}
                  onChange={(e) => setChosen(Number(e.target.value))}
                >
                  {list.map((p) => (
                    <option key={p.id} value={p.id}>
                      {serviceName(p)}
                    </option>
                  ))}
                </SelectField>
              )}
              <Section title={profile.name}>
                <ProfileUsage key={profile.id} profile={profile} />
              </Section>
            </>
          );
        }}
      </QueryView>
    </div>
  );
};
