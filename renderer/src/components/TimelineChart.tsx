/**
 * One measure of one participant over time (uPlot): a series per API version (never joined: v1.2 and
 * v1.3 differ in colour, line and point style), each with its within-person baseline band (mean ± 1 SD
 * of the first sessions, stronger over the sessions that formed it), markers above sessions whose audio
 * was converted, marginal, isolated or warned, and an ordinal step chart for categorical insights. A
 * value the service sent outside the specification is drawn where it is (never clamped to the measure's
 * range, which is then drawn as a dotted line) and ringed as flagged; the table says why. A value of
 * a recording excluded from analysis is drawn as a cross, off the line; a value whose reliable change
 * from the baseline reaches |RCI| 1.96 carries an arrow (up: increase, down: decrease); on the visit
 * axis a dotted line stands at each recording outside every visit. The canvas is
 * hidden from assistive technology: the same facts are in the summary sentence and in the table of
 * values beside it.
 */
import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type uPlot from 'uplot';
import { Link } from 'wouter';
import { DATA_QUALITY } from '../../../shared/api/data-quality';
import { AXIS_LABEL, type ChartAxis } from '../../../shared/chart-axis';
import { type ChartMeasure } from '../../../shared/timeline-measures';
import { fmtDate, fmtNumber, fmtSigned } from '../lib/format';
import { useChartColours, type ChartColours } from './chart-theme';
import { niceTicks, type PlotModel } from './chart-svg';
import { watchFirstLayout } from './first-layout';
import { SaveChart } from './SaveChart';
import { TableScroll } from './TableScroll';
import { type ChartSession, type ChartSeries } from './timeline-types';
import { VERSION_STYLE, colourOf, markersOf } from './timeline-legend';
import { summaryOf, changeText, statDigits, withUnit, levelsOf, fmtValue } from './timeline-sentences';
import { axisTickLabel, type XOf, paddedRange, dateX } from './timeline-axis';
import {
  flaggedPoints,
  marksOf,
  prepare,
  spanOf,
  type ChartMarks,
  type Prepared,
} from './timeline-plot-data';
import { mountPlot, plotOptions, sameDrawing, type CanvasProps } from './timeline-canvas';

/** The chart as a PlotModel, for saving it as SVG or PNG. */
const plotModelOf = (
  measure: ChartMeasure,
  series: readonly ChartSeries[],
  sessions: ReadonlyMap<number, ChartSession>,
  data: Prepared,
  xOf: XOf,
  axis: ChartAxis,
  span: readonly [number, number],
  colours: ChartColours,
  who: string,
  baselineSessions: number,
  marks: ChartMarks,
): PlotModel => {
  const [xmin, xmax] = paddedRange(axis, span[0], span[1]);
  const xLabel = axisTickLabel(axis, span[0], span[1], marks.visitNames);
  const xTicks =
    axis === 'date'
      ? niceTicks(xmin / 86_400, xmax / 86_400, 6).map((d) => d * 86_400)
      : niceTicks(xmin, xmax, 8).filter((v) => axis !== 'visit' || Number.isInteger(v));
  const yTicks = data.levels ? data.levels.map((_, i) => i) : niceTicks(data.lo, data.hi, 5);
  return {
    title: `${who} · ${measure.label}${measure.unit ? ` (${measure.unit})` : ''}`,
    subtitle: series
      .map((s) => summaryOf(measure, s, sessions, baselineSessions))
      .join(' ')
      .slice(0, 140),
    x: { min: xmin, max: xmax, label: AXIS_LABEL[axis], ticks: xTicks.map((v) => ({ v, label: xLabel(v) })) },
    y: {
      min: data.lo,
      max: data.hi,
      label: measure.unit ? `${measure.label} (${measure.unit})` : measure.label,
      ticks: yTicks.map((v) => ({ v, label: data.levels ? (data.levels[v] ?? '') : fmtNumber(v) })),
    },
    rects: series.flatMap((s) =>
      s.baseline?.sd && s.points.length
        ? [
            {
              x0: xOf(s.baseline.from),
              x1: Math.max(xOf(s.points.at(-1)!.recordedAt), xOf(s.baseline.to)),
              y0: s.baseline.mean - s.baseline.sd,
              y1: s.baseline.mean + s.baseline.sd,
              colour: colourOf(colours, s.apiVersion),
              opacity: 0.12,
            },
          ]
        : [],
    ),
    lines: series.map((s, si) => ({
      points: data.xs.flatMap((x, i) => {
        const y = data.ys[si]?.[i];
        return y === null || y === undefined ? [] : [[x, y] as const];
      }),
      colour: colourOf(colours, s.apiVersion),
      dash: VERSION_STYLE[s.apiVersion].dash,
      dots: VERSION_STYLE[s.apiVersion].hollow ? 'hollow' : 'filled',
    })),
    rings: flaggedPoints(series, data, xOf).map((r) => ({ ...r, colour: colours.flag })),
    pointMarks: [
      ...data.excluded.map((e) => ({ x: e.x, y: e.y, shape: 'cross' as const, colour: colours.text })),
      ...marks.reliable.map((r) => ({
        x: r.x,
        y: r.y,
        shape: r.direction === 'increase' ? ('arrow-up' as const) : ('arrow-down' as const),
        colour: colourOf(colours, r.source),
      })),
    ],
    markers: series.flatMap((s) =>
      s.points.flatMap((p) =>
        markersOf(sessions.get(p.recordingId)).map((m) => ({
          x: xOf(p.recordedAt),
          shape: m.shape,
          colour: colours.marker,
        })),
      ),
    ),
    legend: [
      ...series.map((s) => ({
        label: `${VERSION_STYLE[s.apiVersion].name} (${VERSION_STYLE[s.apiVersion].words})`,
        colour: colourOf(colours, s.apiVersion),
        dash: VERSION_STYLE[s.apiVersion].dash,
      })),
      ...(series.some((s) => s.baseline?.sd)
        ? [{ label: 'Baseline: mean ± 1 SD', colour: colours.v13 }]
        : []),
      ...(series.some((s) => s.points.some((p) => p.flags.length))
        ? [{ label: 'Ringed: flagged value', colour: colours.flag }]
        : []),
      ...(data.excluded.length ? [{ label: 'Cross: excluded recording', colour: colours.text }] : []),
      ...(marks.reliable.length
        ? [{ label: 'Arrow: reliable change (|RCI| ≥ 1.96)', colour: colours.v13 }]
        : []),
    ],
    colours,
  };
};

/** How far beyond the window a chart starts drawing (about three charts' height): scrolling meets drawn charts. */
const NEAR_MARGIN = '700px 0px';
/** A chart out of view draws when the window is next idle, and at the latest after this long. */
const IDLE_DRAW_MS = 4000;

/** Where a chart stands: not near the window yet; near it (its width from its own observer); or in the
 * window at its first layout, with the width that layout gave (the plot is made at once with it). */
type Nearness = { near: false } | { near: true; width: number | null };

/**
 * Whether an element has come within NEAR_MARGIN of the window (and, once it has, for good): a page of
 * 37 charts draws the few in view first; the others draw in the window's idle time, one idle callback
 * each, or at once when scrolled near, so scrolling (or a full-page screenshot) meets drawn charts.
 */
const useNearView = (ref: RefObject<HTMLElement | null>): Nearness => {
  const [state, setState] = useState<Nearness>({ near: false });
  // A chart in the window at its first layout draws in that same frame: the page's own layout reports
  // its box (first-layout.ts: after the frame's layout, before its paint, every chart's box read before
  // any is drawn), and its state is rendered there and then (flushSync), the plot made with that width.
  // Reading the box in a layout effect instead forced an extra layout of the whole page. Charts only near
  // the window wait for the IntersectionObserver, so those in view are drawn first.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    return (
      watchFirstLayout(
        el,
        (l) => {
          if (l.inWindow) setState((s) => (s.near ? s : { near: true, width: l.width }));
        },
        flushSync,
      ) ?? undefined
    );
  }, [ref]);
  const near = state.near;
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const nearNow = () => setState((s) => (s.near ? s : { near: true, width: null }));
    if (typeof IntersectionObserver === 'undefined') {
      nearNow();
      return;
    }
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && nearNow(), {
      rootMargin: NEAR_MARGIN,
    });
    seen.observe(el);
    const idle =
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(nearNow, { timeout: IDLE_DRAW_MS })
        : null;
    return () => {
      seen.disconnect();
      if (idle !== null) window.cancelIdleCallback(idle);
    };
  }, [ref, near]);
  return state;
};

/**
 * The uPlot canvas. It is made once the chart comes near the window (useNearView), and made again only
 * when what uPlot fixes at creation changes (the series' versions and styles, a categorical measure's
 * levels, the colours, clicking); an axis switch, new data or new marks update the same plot in place
 * (setData: its scales and axes are recomputed from the latest inputs, which its hooks read at each draw).
 */
const Plot = ({
  box,
  width: laidOut,
  ...props
}: CanvasProps & {
  box: RefObject<HTMLDivElement | null>;
  /** The box's width at its first layout, when known: the plot is made at once, in this commit. */
  width: number | null;
}) => {
  const { series, data, colours, onOpen } = props;
  const latest = useRef<CanvasProps>(props);
  const drawnWith = useRef<CanvasProps | null>(null);
  const plotRef = useRef<uPlot | null>(null);
  // The first plot may be made with the first layout's width; one made again (new colours, versions)
  // takes its width from its resize observer's first report, the width of now.
  const madeOnce = useRef(false);
  // Before the plot's own layout effect below reads it (a plot made again reads the newest props).
  useLayoutEffect(() => {
    latest.current = props;
  });
  const shape = `${series.map((s) => s.apiVersion).join(' ')}|${data.levels?.join('\u0000') ?? '#'}|${onOpen ? 'open' : ''}`;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const now = () => latest.current;
    const opts = plotOptions(now, el, { series, levels: data.levels, colours });
    const stop = mountPlot(el, now, opts, madeOnce.current ? null : laidOut, (plot, drawn) => {
      plotRef.current = plot;
      madeOnce.current = true;
      drawnWith.current = drawn;
    });
    return () => {
      stop();
      plotRef.current?.destroy();
      plotRef.current = null;
      drawnWith.current = null;
    };
    // `shape` stands for series, levels and onOpen: what uPlot fixes when a plot is made.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [box, shape, colours]);

  // New data, another axis, new marks: the same plot, its data and scales set again and drawn once.
  useEffect(() => {
    const plot = plotRef.current;
    const c = latest.current;
    if (!plot || (drawnWith.current && sameDrawing(drawnWith.current, c))) return;
    drawnWith.current = c;
    plot.setData([c.data.xs, ...c.data.ys]);
  });

  return null;
};

/** What a chart's canvas is drawn from; its data and marks are worked out once it comes near the window. */
interface CanvasInputs extends Omit<CanvasProps, 'data' | 'marks'> {
  measure: ChartMeasure;
  baselineSessions: number;
  outside: ReadonlySet<number> | undefined;
  visitNames: ReadonlyMap<number, string> | null;
}

/**
 * The canvas' box. A chart's plot data (places, values, ranges) and marks are worked out only once the
 * chart comes near the window (useNearView), so "Show all" makes 37 figures but works out and draws
 * only the charts in view (the others when scrolled near or in idle time).
 */
const Canvas = ({ measure, baselineSessions, outside, visitNames, ...props }: CanvasInputs) => {
  const { series, xOf, axis, label } = props;
  const box = useRef<HTMLDivElement>(null);
  const nearness = useNearView(box);
  const near = nearness.near;
  const data = useMemo(() => (near ? prepare(measure, series, xOf) : null), [near, measure, series, xOf]);
  const marks = useMemo(
    () => (near ? marksOf(series, baselineSessions, xOf, axis, outside, visitNames) : null),
    [near, series, baselineSessions, xOf, axis, outside, visitNames],
  );
  return (
    <div ref={box} className="tchart-canvas" aria-hidden="true" data-chart={label}>
      {data && marks && (
        <Plot {...props} data={data} marks={marks} box={box} width={nearness.near ? nearness.width : null} />
      )}
    </div>
  );
};

const noOne = () => '';

/**
 * One chart with its caption, summary and table. Memoised: a page of charts re-renders only the charts
 * whose inputs changed (a measure added draws one chart, not every chart again).
 */
export const TimelineChart = memo(function TimelineChart({
  measure,
  series,
  sessions,
  span,
  baselineSessions,
  axis = 'date',
  xOf = dateX,
  recordingHref,
  onOpen,
  who = noOne,
  outside,
  visitNames = null,
  hasVisits = false,
  onDrawn,
}: {
  measure: ChartMeasure;
  series: readonly ChartSeries[];
  sessions: ReadonlyMap<number, ChartSession>;
  /** The participant's first and last session on the axis, shared by all their charts. */
  span?: readonly [number, number];
  /** k: the sessions a baseline needs. */
  baselineSessions: number;
  axis?: ChartAxis;
  xOf?: XOf;
  /** Where each point's recording is (the table's dates link there). */
  recordingHref?: (recordingId: number) => string;
  /** A click on a point. */
  onOpen?: (recordingId: number) => void;
  /**
   * Whose chart it is, for the saved file's title, asked when saving: the page's participant code may
   * arrive after the charts, and its arrival must not make every chart again.
   */
  who?: () => string;
  /** Recordings outside every visit, marked on the visit axis. */
  outside?: ReadonlySet<number>;
  /** The visit axis' names by index (the study's schedule). */
  visitNames?: ReadonlyMap<number, string> | null;
  /** The study has a visit schedule (the table gives each value's visit). */
  hasVisits?: boolean;
  /** Told when the chart's plot is first drawn (the page makes what is below the charts after them). */
  onDrawn?: () => void;
}) {
  const id = useId();
  const [tableOpen, setTableOpen] = useState(false);
  const colours = useChartColours();
  const marks = () => marksOf(series, baselineSessions, xOf, axis, outside, visitNames ?? null);
  const unit = measure.unit;
  const levels = measure.valueType === 'category' ? levelsOf(measure, series) : null;
  return (
    <figure className="tchart" aria-labelledby={`${id}-t`} aria-describedby={`${id}-s`}>
      <figcaption>
        <h4 id={`${id}-t`} className="tchart-title">
          {measure.label}
          {unit ? <span className="muted"> ({unit})</span> : null}
        </h4>
        {measure.meaning !== measure.label && <p className="muted small">{measure.meaning}</p>}
      </figcaption>
      <ul className="tchart-latest">
        {series.map((s) => (
          <li key={s.apiVersion}>
            {series.length > 1 && (
              <span className={`version-tag version-${s.apiVersion.replace('.', '')}`}>{s.apiVersion}</span>
            )}{' '}
            Latest <strong>{withUnit(measure, fmtValue(measure, s.latest?.value))}</strong>
            {s.change ? (
              <>
                {' '}
                ·{' '}
                {s.change.change === null && s.change.verdict === 'no_baseline_yet' ? (
                  <span className="muted tchart-change" data-verdict={s.change.verdict}>
                    No baseline yet ({s.baselinePresent} of {baselineSessions} sessions)
                  </span>
                ) : (
                  <span
                    className={`tchart-change${s.change.verdict.startsWith('reliable_') ? ' reliable' : ''}`}
                    data-verdict={s.change.verdict}
                  >
                    {changeText(measure, s.change)}
                  </span>
                )}
              </>
            ) : null}
          </li>
        ))}
        {levels && (
          <li className="muted">
            Levels: {levels.join(' < ')}
            {measure.allowed ? '' : ' (as seen; the specification lists none)'}
          </li>
        )}
      </ul>
      <Canvas
        series={series}
        sessions={sessions}
        label={measure.key}
        span={span}
        axis={axis}
        xOf={xOf}
        measure={measure}
        baselineSessions={baselineSessions}
        outside={outside}
        visitNames={visitNames ?? null}
        colours={colours}
        onOpen={onOpen}
        onDrawn={onDrawn}
      />
      <SaveChart
        what={measure.label}
        model={() => {
          const data = prepare(measure, series, xOf);
          return plotModelOf(
            measure,
            series,
            sessions,
            data,
            xOf,
            axis,
            spanOf(span, data),
            colours,
            who(),
            baselineSessions,
            marks(),
          );
        }}
      />
      <p id={`${id}-s`} className="small muted tchart-summary">
        {series.map((s) => summaryOf(measure, s, sessions, baselineSessions)).join(' ')}
      </p>
      {/* The table's rows are made when it is opened: a 200-session participant's 37 tables would be 44,000 cells. */}
      <details className="tchart-table" onToggle={(e) => setTableOpen(e.currentTarget.open)}>
        <summary>Values as a table</summary>
        {tableOpen && (
          <ValuesTable
            measure={measure}
            series={series}
            sessions={sessions}
            marks={marks()}
            recordingHref={recordingHref}
            hasVisits={hasVisits}
          />
        )}
      </details>
    </figure>
  );
});

/** A chart's values by session (made only once its table is opened). */
const ValuesTable = ({
  measure,
  series,
  sessions,
  marks,
  recordingHref,
  hasVisits,
}: {
  measure: ChartMeasure;
  series: readonly ChartSeries[];
  sessions: ReadonlyMap<number, ChartSession>;
  marks: ChartMarks;
  recordingHref: ((recordingId: number) => string) | undefined;
  hasVisits: boolean;
}) => {
  const unit = measure.unit;
  const reliableOf = new Map(marks.reliable.map((r) => [r.recordingId, r]));
  const rows = series
    .flatMap((s) => [
      ...s.points.map((p) => ({ s, p, excluded: false })),
      ...s.excluded.map((p) => ({ s, p, excluded: true })),
    ])
    .sort(
      (a, b) => a.p.recordedAt.localeCompare(b.p.recordedAt) || a.s.apiVersion.localeCompare(b.s.apiVersion),
    );
  return (
    <TableScroll label={`${measure.label}: values by session`}>
      <table className="table compact">
        <caption className="sr-only">{measure.label} for each session</caption>
        <thead>
          <tr>
            <th scope="col">Date{hasVisits ? ' and visit' : ''}</th>
            <th scope="col">Version</th>
            <th scope="col">Value{unit ? ` (${unit})` : ''}</th>
            <th scope="col">From baseline</th>
            <th scope="col">Audio</th>
            <th scope="col">Data quality</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ s, p, excluded }) => {
            const sess = sessions.get(p.recordingId);
            const ms = markersOf(sess);
            const rc = excluded ? undefined : reliableOf.get(p.recordingId);
            return (
              <tr
                key={`${s.apiVersion}-${p.recordingId}`}
                className={
                  [p.flags.length ? 'flagged' : '', excluded ? 'excluded' : ''].join(' ').trim() || undefined
                }
                data-flags={p.flags.map((f) => f.code).join(' ') || undefined}
                data-excluded={excluded || undefined}
              >
                <th scope="row">
                  {recordingHref ? (
                    <Link href={recordingHref(p.recordingId)}>{fmtDate(p.recordedAt)}</Link>
                  ) : (
                    fmtDate(p.recordedAt)
                  )}
                  {sess?.session ? ` · ${sess.session}` : ''}
                  {hasVisits && (
                    <div className="muted">
                      {sess?.visit ? `Visit ${sess.visit.index}: ${sess.visit.name}` : 'outside every visit'}
                    </div>
                  )}
                </th>
                <td>{s.apiVersion === 'local' ? 'local' : s.apiVersion}</td>
                <td className="tvalue">
                  {fmtValue(measure, p.value)}
                  {sess?.simulated ? <span className="muted"> (simulated)</span> : null}
                  {excluded ? (
                    <div>
                      <span className="badge badge-muted">Excluded</span> {sess?.excluded ?? 'excluded'}:
                      counted in no baseline or change.
                    </div>
                  ) : null}
                </td>
                <td>
                  {s.baseline && typeof p.value === 'number'
                    ? fmtSigned(p.value - s.baseline.mean, statDigits(measure))
                    : '—'}
                  {rc ? ` · reliable ${rc.direction} (RCI ${fmtSigned(rc.rci)})` : ''}
                </td>
                <td>
                  {ms.length
                    ? ms
                        .map((m) =>
                          m.key === 'warnings'
                            ? `Warning: ${sess!.flags.warnings.join(' ')}`
                            : m.label.split(' (')[0],
                        )
                        .join('; ')
                    : 'as recorded'}
                </td>
                <td>
                  {p.flags.length ? (
                    p.flags.map((f, i) => (
                      <div key={i} className="flag-note" title={DATA_QUALITY[f.code].meaning}>
                        <span className="badge badge-warn">Flagged</span> {f.code.replace(/_/g, ' ')}:
                        received {f.received ?? 'nothing'}, expected {f.expected}.
                      </div>
                    ))
                  ) : (
                    <span className="muted">as specified</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
};
