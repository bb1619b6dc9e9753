/**
 * What a timeline chart says in words: values and statistics with their digits and units, the change from
 * the baseline, and the one sentence per series that gives a screen-reader user what the chart shows.
 */
import { CHANGE_VERDICT_LABEL } from '../../../shared/change';
import { type ChartMeasure } from '../../../shared/timeline-measures';
import { fmtDate, fmtNumber, fmtSigned, plural } from '../lib/format';
import { reliableMarks } from './timeline-data';
import { type ChartSession, type ChartSeries, type ChangeView } from './timeline-types';
import { MARKERS, markersOf } from './timeline-legend';

/** Ordered levels of a categorical measure: the catalogue's, or (where the spec lists none) those seen, sorted. */
export const levelsOf = (measure: ChartMeasure, series: readonly ChartSeries[]): string[] => {
  const seen = new Set(series.flatMap((s) => s.points.map((p) => String(p.value))));
  const allowed = measure.allowed ?? [];
  return [...allowed, ...[...seen].filter((v) => !allowed.includes(v)).sort()];
};

const digitsOf = (m: ChartMeasure) =>
  m.valueType === 'integer' ? 0 : m.kind === 'probability' ? 2 : undefined;
/** Means, SDs and changes carry one digit more than the values they come from (a mean of integers is not an integer). */
export const statDigits = (m: ChartMeasure) =>
  m.valueType === 'integer' ? 1 : m.kind === 'probability' ? 3 : 2;
const fmtStat = (m: ChartMeasure, n: number) => fmtNumber(n, statDigits(m));
export const fmtValue = (m: ChartMeasure, v: number | string | null | undefined) =>
  v === null || v === undefined ? 'not provided' : typeof v === 'string' ? v : fmtNumber(v, digitsOf(m));
export const withUnit = (m: ChartMeasure, text: string) =>
  m.unit && !m.unit.startsWith('score') ? `${text} ${m.unit}` : text;

/** The latest session's change in words: its size, in SDs where an SD is usable, and the reliable-change verdict. */
export const changeText = (m: ChartMeasure, c: ChangeView): string => {
  const trend =
    c.trendPerWeek !== null
      ? `; trend ${withUnit(m, fmtSigned(c.trendPerWeek, statDigits(m)))} per week`
      : '';
  if (c.change === null) return `${CHANGE_VERDICT_LABEL[c.verdict]}${trend}`;
  const inSd =
    c.changeInSd !== null
      ? ` (${fmtSigned(c.changeInSd)} SD${c.sdSource === 'cohort' ? ', cohort SD floor' : ''})`
      : c.sdParticipant === null
        ? ' (not in SDs: a baseline of one session has no spread to scale by)'
        : ' (not in SDs: the baseline’s values do not vary, so there is no spread to scale by)';
  const rci = c.rci !== null ? `RCI ${fmtSigned(c.rci)}: ` : '';
  return `${withUnit(m, fmtSigned(c.change, statDigits(m)))} from baseline${inSd}; ${rci}${CHANGE_VERDICT_LABEL[c.verdict]}${trend}`;
};

/** One sentence per series: what a sighted reader takes from the chart. */
export const summaryOf = (
  m: ChartMeasure,
  s: ChartSeries,
  sessions: ReadonlyMap<number, ChartSession>,
  k: number,
): string => {
  const first = s.points[0];
  const n = s.points.length;
  const when = !first
    ? ''
    : n === 1
      ? ` on ${fmtDate(first.recordedAt)}`
      : ` from ${fmtDate(first.recordedAt)} to ${fmtDate(s.latest?.recordedAt)}`;
  const parts = [`${s.apiVersion}: ${plural(n, 'session')}${when}`];
  if (s.baseline) {
    parts.push(
      `baseline (first ${s.baseline.n}) ${withUnit(m, fmtStat(m, s.baseline.mean))}${s.baseline.sd !== null ? ` ± ${fmtStat(m, s.baseline.sd)}` : ''}`,
    );
  } else if (s.change) parts.push(`no baseline yet (${s.baselinePresent} of ${k} sessions)`);
  if (s.latest) parts.push(`latest ${withUnit(m, fmtValue(m, s.latest.value))}`);
  if (s.change) parts.push(changeText(m, s.change));
  const flagged = MARKERS.map(
    (mk) => [mk, s.points.filter((p) => markersOf(sessions.get(p.recordingId)).includes(mk)).length] as const,
  ).filter(([, k]) => k > 0);
  if (flagged.length)
    parts.push(flagged.map(([mk, k]) => `${k} ${mk.label.split(' (')[0]!.toLowerCase()}`).join(', '));
  const odd = s.points.filter((p) => p.flags.length > 0);
  if (odd.length)
    parts.push(
      `${odd.length === 1 ? 'one value' : `${odd.length} values`} flagged as departing from the specification (${odd
        .map((p) => `${fmtValue(m, p.value)} on ${fmtDate(p.recordedAt)}`)
        .join(', ')}; see the table for why)`,
    );
  const reliable = reliableMarks(s, k);
  if (reliable.length)
    parts.push(
      `${reliable.length === 1 ? 'one later value' : `${reliable.length} later values`} a reliable change from the baseline (${reliable
        .map(
          (r) =>
            `${r.direction} on ${fmtDate(s.points.find((p) => p.recordingId === r.recordingId)?.recordedAt)}`,
        )
        .join(', ')})`,
    );
  if (s.excluded.length)
    parts.push(
      `${s.excluded.length === 1 ? 'one value' : `${s.excluded.length} values`} of excluded recordings drawn as crosses, counted nowhere`,
    );
  const unplotted =
    m.valueType === 'category' ? 0 : s.points.filter((p) => typeof p.value !== 'number').length;
  if (unplotted)
    parts.push(
      `${unplotted === 1 ? 'one value is' : `${unplotted} values are`} text, not drawn (in the table)`,
    );
  return `${parts.join('; ')}.`;
};
