/**
 * The recording page's local acoustic measures (computed on this machine, Praat's standard settings,
 * docs/acoustics.md) beside the service's values, and the recording's quality control: its verdict with
 * the reasons and the levels it rests on. Keys, labels and units: shared/acoustics/measures.ts.
 */
import { limitFlagsOf } from '../../../../shared/acoustics/limits';
import { MEASURE_KEYS, MEASURES } from '../../../../shared/acoustics/measures';
import type { LocalMeasurement } from '../../../../shared/contract/acoustics.contract';
import { Badge } from '../../components/Badges';
import { Empty, Notice, QueryView } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { useCall } from '../../lib/api';
import { fmtDateTime, fmtInt, fmtNumber, plural } from '../../lib/format';

const VERDICT = {
  good: { label: 'Good', tone: 'ok' },
  usable: { label: 'Usable', tone: 'warn' },
  poor: { label: 'Poor', tone: 'bad' },
} as const;

const withUnit = (v: number | null | undefined, unit: string, digits = 2): string =>
  v === null || v === undefined
    ? '—'
    : unit === 'count'
      ? fmtNumber(v, 0)
      : unit === 'ratio'
        ? fmtNumber(v, 3)
        : `${fmtNumber(v, digits)} ${unit}`;

const Quality = ({ m }: { m: LocalMeasurement }) => {
  const q = m.quality;
  if (!q) return null;
  const v = VERDICT[q.verdict];
  return (
    <div className="local-quality">
      <p>
        Recording quality: <Badge tone={v.tone}>{v.label}</Badge>
      </p>
      {q.reasons.length > 0 && (
        <ul>
          {q.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      <p className="muted">
        SNR {withUnit(q.snrDb, 'dB', 1)} · peak {withUnit(q.peakDbfs, 'dBFS', 1)} · RMS{' '}
        {withUnit(q.rmsDbfs, 'dBFS', 1)} · clipped {fmtNumber(q.clippingRatio * 100, 2)} % · DC offset{' '}
        {fmtNumber(q.dcOffset, 3)} · {plural(q.longSilences, 'long silence')}
      </p>
    </div>
  );
};

const Measures = ({ m }: { m: LocalMeasurement }) => {
  const limits = limitFlagsOf(m.measures, m.pitchFloorHz, m.pitchCeilingHz);
  const atLimit = new Map(limits.map((f) => [f.measure as string, f]));
  return (
    <>
      {m.problem ? (
        <Notice tone="bad" title="This recording could not be measured">
          <p>{m.problem}</p>
        </Notice>
      ) : (
        <>
          <Quality m={m} />
          {limits.length > 0 && (
            <Notice tone="warn" title="Values at the pitch search's limits">
              <ul data-testid="limit-flags">
                {limits.map((f) => (
                  <li key={f.measure}>{f.text}.</li>
                ))}
              </ul>
            </Notice>
          )}
          <table className="table compact">
            <caption>
              Measured on this machine with {m.engineVersion}, pitch range {fmtInt(m.pitchFloorHz)}–
              {fmtInt(m.pitchCeilingHz)} Hz, {fmtDateTime(m.measuredAt)}
            </caption>
            <thead>
              <tr>
                <th scope="col">Measure</th>
                <th scope="col">Value</th>
                <th scope="col">Method</th>
              </tr>
            </thead>
            <tbody>
              {MEASURE_KEYS.map((k) => (
                <tr key={k}>
                  <th scope="row">
                    {MEASURES[k].label} <code>{k}</code>
                  </th>
                  <td className="num">
                    {withUnit(m.measures[k], MEASURES[k].unit)}
                    {atLimit.has(k) && (
                      <>
                        {' '}
                        <Badge tone="warn" title={atLimit.get(k)!.text}>
                          at the search {atLimit.get(k)!.limit}
                        </Badge>
                      </>
                    )}
                  </td>
                  <td className="muted">{MEASURES[k].algorithm}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
};

export const LocalMeasuresSection = ({ recordingId }: { recordingId: number }) => {
  const q = useCall('acoustics.recording', { recordingId });
  return (
    <Section title="Local acoustic measures">
      <QueryView q={q} loading="Loading the local measures…">
        {(m) =>
          m === null ? (
            <Empty title="Not measured on this machine yet">
              <p>
                Run <code>voicescope measure --study &lt;name&gt;</code> to compute the local measures and the
                recording’s quality control.
              </p>
            </Empty>
          ) : (
            <Measures m={m} />
          )
        }
      </QueryView>
    </Section>
  );
};
