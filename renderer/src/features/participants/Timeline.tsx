/**
 * A participant's timeline: the measures the researcher picked (by analysis type and name, remembered
 * per study; local acoustic measures among them), as small multiples on one shared axis (date, the
 * study's visits, or days since the participant's baseline date), each with the within-person baseline
 * (first N sessions, adjustable), the latest change from it and reliable changes marked; a legend of
 * version styles, session markers and point marks (flagged, excluded, reliable change, outside every
 * visit); a notice whenever v1.2 and v1.3 results are both present. Each point leads to its recording.
 *
 * Speed (a 200-session participant): the page asks only for the measures it shows, then, once
 * they are drawn and the window is idle, for every measure, so that picking more draws at once.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { AXIS_LABEL, AXIS_MEANING, CHART_AXES, type ChartAxis } from '../../../../shared/chart-axis';
import type { ChartChoice } from '../../../../shared/contract/cohort.contract';
import { STUDY_CHOICE, type Timeline as TimelineData } from '../../../../shared/contract/timeline.contract';
import {
  chartMeasure,
  defaultChartMeasures,
  LOCAL_ANALYSIS,
  type ChartAnalysis,
  type ChartMeasure,
} from '../../../../shared/timeline-measures';
import { paths } from '../../app/paths';
import { ANALYSIS_TYPES } from '../../../../shared/api/vocabulary';
import { baselineRuleText, DEFAULT_BASELINE_SESSIONS } from '../../../../shared/baseline';
import { Empty, Notice, QueryView } from '../../components/Feedback';
import { Checkbox, SelectField, TextField } from '../../components/Form';
import { TimelineChart } from '../../components/TimelineChart';
import { warmChartFormatters } from '../../components/timeline-axis';
import {
  FLAGGED_LABEL,
  FlagRingIcon,
  MARKERS,
  MarkerIcon,
  POINT_MARKS,
  PointMarkIcon,
  VERSION_STYLE,
  markersOf,
} from '../../components/timeline-legend';
import type { ChartSeries, ChartSession } from '../../components/timeline-types';
import { axisPlacement, chartSource } from '../../components/timeline-data';
import { useAction, useCall } from '../../lib/api';
import { ANALYSIS_LABEL } from '../../lib/labels';
import { plural, theCount } from '../../lib/format';
import { baselineSessionsOf, flaggedOn } from './timeline-view';

const Legend = ({
  versions,
  sessions,
  flagged,
  excluded,
  outside,
  local,
}: {
  versions: readonly (keyof typeof VERSION_STYLE)[];
  sessions: readonly ChartSession[];
  /** How many values on these charts are flagged as departing from the specification. */
  flagged: number;
  /** How many values on these charts are of excluded recordings. */
  excluded: number;
  /** Recordings outside every visit (visit axis with a schedule), or null on other axes. */
  outside: number | null;
  /** A local measure is shown. */
  local: boolean;
}) => {
  const used = new Set(sessions.flatMap((s) => markersOf(s).map((m) => m.key)));
  const items: { key: string; icon: 'cross' | 'arrow-up' | 'dotted'; label: string; n: number | null }[] = [
    { key: 'excluded', icon: 'cross', label: POINT_MARKS.excluded.label, n: excluded },
    { key: 'reliable', icon: 'arrow-up', label: POINT_MARKS.reliable.label, n: null },
    ...(outside !== null
      ? [{ key: 'outside', icon: 'dotted' as const, label: POINT_MARKS.outside.label, n: outside }]
      : []),
  ];
  return (
    <div className="tlegend" aria-label="How to read the charts" role="group">
      {[...versions, ...(local ? (['local'] as const) : [])].map((v) => (
        <span key={v} className="tlegend-item">
          <svg
            width="28"
            height="12"
            aria-hidden="true"
            focusable="false"
            className={`version-swatch version-${v.replace('.', '')}`}
          >
            <line
              x1="1"
              y1="6"
              x2="27"
              y2="6"
              stroke="currentColor"
              strokeWidth="2"
              strokeDasharray={VERSION_STYLE[v].dash?.join(' ')}
            />
            <circle
              cx="14"
              cy="6"
              r="3.5"
              stroke="currentColor"
              strokeWidth="2"
              fill={VERSION_STYLE[v].hollow ? 'var(--panel)' : 'currentColor'}
            />
          </svg>
          {VERSION_STYLE[v].name} ({VERSION_STYLE[v].words})
        </span>
      ))}
      <span className="tlegend-item">
        <span className="band-swatch" aria-hidden="true" />
        Baseline: mean ± 1 SD of the first sessions, once all are present (dashed line: mean)
      </span>
      {MARKERS.map((m) => (
        <span key={m.key} className={`tlegend-item${used.has(m.key) ? '' : ' unused'}`}>
          <span className="marker-colour">
            <MarkerIcon shape={m.shape} />
          </span>
          {m.label}
          {used.has(m.key) ? '' : ' (none here)'}
        </span>
      ))}
      <span className={`tlegend-item${flagged > 0 ? '' : ' unused'}`}>
        <span className="flag-colour">
          <FlagRingIcon />
        </span>
        {FLAGGED_LABEL}
        {flagged > 0 ? ` (${flagged}; each chart’s table says why)` : ' (none here)'}
      </span>
      {items.map((it) => (
        <span key={it.key} className={`tlegend-item${it.n === 0 ? ' unused' : ''}`} data-mark={it.key}>
          <span className="mark-colour">
            <PointMarkIcon shape={it.icon} />
          </span>
          {it.label}
          {it.n === 0 ? ' (none here)' : it.n !== null ? ` (${it.n})` : ''}
        </span>
      ))}
    </div>
  );
};

/** What each axis counts on this page (the study's design: its visits and the participant's day 0). */
const PAGE_AXIS_MEANING: Readonly<Record<ChartAxis, string>> = {
  date: AXIS_MEANING.date,
  visit: 'the visit of the study’s schedule each recording falls in',
  days: 'calendar days since the participant’s baseline date (day 0 of the schedule)',
};

/** The picker's groups: the service's analysis types, then the local acoustic measures. */
const PICKER_GROUPS: readonly ChartAnalysis[] = [...ANALYSIS_TYPES, LOCAL_ANALYSIS];
const GROUP_LABEL = (g: ChartAnalysis) =>
  g === LOCAL_ANALYSIS ? 'Local acoustic measures (computed here)' : ANALYSIS_LABEL[g];

/** Measures shown before the researcher picks (shared with the host, which applies the study's choice). */
const defaultMeasures = defaultChartMeasures;

const MeasurePicker = ({
  available,
  chosen,
  onChange,
}: {
  available: readonly ChartMeasure[];
  chosen: readonly string[];
  onChange: (keys: string[]) => void;
}) => {
  const [find, setFind] = useState('');
  // Its fields are made when it is first opened (about 40 checkboxes the page does not need before).
  const [opened, setOpened] = useState(false);
  const needle = find.trim().toLowerCase();
  const shown = available.filter(
    (m) => !needle || m.label.toLowerCase().includes(needle) || m.key.toLowerCase().includes(needle),
  );
  const set = new Set(chosen);
  const toggle = (key: string, on: boolean) =>
    onChange(
      on
        ? available.filter((m) => set.has(m.key) || m.key === key).map((m) => m.key)
        : chosen.filter((k) => k !== key),
    );
  return (
    <details className="measure-picker" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      {/* The click (or Enter, Space) that opens it makes its fields at once, before the toggle event. */}
      <summary onClick={() => setOpened(true)}>
        Measures shown: {chosen.length} of {available.length} <span className="muted">(choose…)</span>
      </summary>
      {opened && (
        <div className="measure-picker-body">
          <div className="measure-picker-tools">
            <TextField
              label="Find a measure"
              type="search"
              value={find}
              onChange={(e) => setFind(e.target.value)}
            />
            <button type="button" onClick={() => onChange(available.map((m) => m.key))}>
              Show all
            </button>
            <button type="button" onClick={() => onChange(defaultMeasures(available))}>
              A few of each type
            </button>
            <button type="button" onClick={() => onChange([])}>
              None
            </button>
          </div>
          {PICKER_GROUPS.map((type) => {
            const ms = shown.filter((m) => m.analysis === type);
            if (ms.length === 0) return null;
            const all = ms.every((m) => set.has(m.key));
            return (
              <fieldset key={type} className="measure-picker-type">
                <legend>{GROUP_LABEL(type)}</legend>
                <Checkbox
                  label={`All of ${GROUP_LABEL(type)}`}
                  checked={all}
                  onChange={(on) => {
                    const keys = new Set(ms.map((m) => m.key));
                    onChange(
                      on
                        ? available.filter((m) => set.has(m.key) || keys.has(m.key)).map((m) => m.key)
                        : chosen.filter((k) => !keys.has(k)),
                    );
                  }}
                />
                {ms.map((m) => (
                  <Checkbox
                    key={m.key}
                    // A local measure's name says it was computed here (e.g. HNR, which the service also gives); its unit too.
                    label={m.analysis === LOCAL_ANALYSIS && m.unit ? `${m.label} (${m.unit})` : m.label}
                    checked={set.has(m.key)}
                    onChange={(on) => toggle(m.key, on)}
                  />
                ))}
              </fieldset>
            );
          })}
        </div>
      )}
    </details>
  );
};

/** The measures and axis chosen for the study: what the researcher picks here is shown at once and stored. */
const useChartChoice = (studyId: number) => {
  const stored = useCall('cohort.chartChoice', { studyId });
  const save = useAction('cohort.saveChartChoice');
  // What the researcher chose here, shown at once and stored for the study.
  const [local, setLocal] = useState<ChartChoice | null>(null);
  const choice: ChartChoice = local ?? stored.data ?? { measures: null, axis: 'date' };
  const choose = (next: ChartChoice) => {
    setLocal(next);
    void save.run({ studyId, choice: next });
  };
  return { choice, choose, known: local !== null || stored.data !== undefined };
};

/**
 * The participant's timeline: first only the measures chosen, then, once the charts shown are drawn and
 * the window is idle, every measure (see above). `seriesOf` gives a measure's series from whichever
 * answer holds it.
 */
const useTimelineAnswer = (
  participantId: number,
  k: { baselineSessions?: number; includeAfterWithdrawal?: boolean },
  onLoaded: ((t: TimelineData) => void) | undefined,
) => {
  // Every measure, fetched once the charts shown are drawn and the window is idle (see above).
  const [wantAll, setWantAll] = useState(false);
  const all = useCall(
    'timeline.participant',
    { participantId, ...k },
    { placeholderData: keepPreviousData, enabled: wantAll },
  );
  // Until then (and whatever is asked while it is on its way), only the measures chosen: until the
  // researcher picks here, the study's stored choice, applied by the host, so that the timeline is asked
  // for at once, beside the stored choice (cohort.chartChoice), not after it.
  // Measures picked here (an axis switch alone keeps asking for the study's choice: no new call).
  const [picked, setPicked] = useState<readonly string[] | null>(null);
  const part = useCall(
    'timeline.participant',
    { participantId, ...k, measures: picked ? [...picked] : STUDY_CHOICE },
    { placeholderData: keepPreviousData, enabled: !all.data },
  );
  // The charts drawn from the first answer keep its data when every measure arrives and after another
  // pick (same k): a chart whose data did not change is not drawn again (chartSource).
  const q = chartSource(part, all) === 'part' ? part : all;
  const seriesOf = (key: string) =>
    (
      q.data?.measures.find((x) => x.key === key) ??
      (all.data?.baselineSessions === q.data?.baselineSessions
        ? all.data?.measures.find((x) => x.key === key)
        : undefined)
    )?.series;
  const t0 = q.data;
  useEffect(() => {
    if (!t0) return;
    onLoaded?.(t0);
    if (wantAll) return;
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
    idle(() => setWantAll(true));
  }, [t0, onLoaded, wantAll]);
  return { q, seriesOf, setPicked };
};

/** Calls `onChartsDrawn` once, at the first chart drawn, or at once when there is nothing to draw. */
const useChartsDrawn = (onChartsDrawn: (() => void) | undefined, nothingToDraw: boolean) => {
  const told = useRef(false);
  const chartDrawn = useCallback(() => {
    if (told.current) return;
    told.current = true;
    onChartsDrawn?.();
  }, [onChartsDrawn]);
  useEffect(() => {
    if (nothingToDraw) chartDrawn();
  }, [nothingToDraw, chartDrawn]);
  return chartDrawn;
};

/** The timeline's heading and its controls: settings link, late recordings, time axis, baseline sessions. */
const TimelineControls = ({
  studyId,
  afterWithdrawal,
  countLate,
  setCountLate,
  axis,
  axisHint,
  setAxis,
  baseline,
  setBaseline,
  baselineHint,
  saveError,
}: {
  studyId: number;
  /** Some recordings are dated after the participant's withdrawal. */
  afterWithdrawal: boolean;
  countLate: boolean;
  setCountLate: (on: boolean) => void;
  axis: ChartAxis;
  axisHint: string;
  setAxis: (axis: ChartAxis) => void;
  /** The baseline sessions as typed. */
  baseline: string;
  setBaseline: (typed: string) => void;
  /** Where the study's baseline comes from, in words. */
  baselineHint: string | undefined;
  /** Why the study's setting was not saved. */
  saveError: string | null;
}) => (
  <div className="section-head">
    <h2 id="timeline-h">Timeline</h2>
    <div className="actions timeline-controls">
      <Link href={paths.study(studyId).change}>Change statistics settings</Link>
      {afterWithdrawal && (
        <label>
          <input type="checkbox" checked={countLate} onChange={(e) => setCountLate(e.target.checked)} /> Count
          recordings made after the withdrawal
        </label>
      )}
      <SelectField
        label="Time axis"
        value={axis}
        hint={axisHint}
        onChange={(e) => setAxis(e.target.value as ChartAxis)}
      >
        {CHART_AXES.map((a) => (
          <option key={a} value={a}>
            {AXIS_LABEL[a]}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Baseline sessions (for the study)"
        type="number"
        min={1}
        max={20}
        value={baseline}
        className="narrow-number"
        onChange={(e) => setBaseline(e.target.value)}
        hint={baselineHint}
        error={baselineSessionsOf(baseline) === null ? 'Enter a whole number from 1 to 20.' : saveError}
      />
    </div>
  </div>
);

/** What the baseline and each chart's change are, over how many sessions. */
const BaselineExplained = ({ sessions, baselineSessions }: { sessions: number; baselineSessions: number }) =>
  // The text is split where the timeline's text always was (the same text nodes draw the same pixels).
  // prettier-ignore
  <p className="muted">
    {plural(sessions, 'analysed session')}. Baseline:{' '}
    {theCount(baselineSessions, 'session', { first: true })} of each series, only once all are present. Each
    chart gives the latest later session’s change from it in the measure’s unit, in SDs (the larger of the
    participant’s baseline SD and the cohort’s within-person SD; none over a degenerate SD), and whether it
    is a reliable change (Jacobson–Truax RCI, |RCI| ≥ 1.96, with the measure’s test-retest reliability).
    Service scores have no published reliability: a trend, no verdict. Click a point, or a date in a chart’s
    table, to open its recording.
  </p>;

/** v1.2 and v1.3 results are never joined: said whenever both are present. */
const TwoVersionsNotice = ({ versions }: { versions: readonly string[] }) => (
  <Notice tone="warn" title="Results from two API versions">
    <p>
      This participant has results from API {versions.join(' and ')}. The versions come from different models
      and field definitions, so each has its own series and its own baseline; they are never joined. Compare
      changes within one version only.
    </p>
  </Notice>
);

/** What a chart of the timeline takes beyond its measure and series, the same for every chart. */
type ChartCommon = Omit<Parameters<typeof TimelineChart>[0], 'measure' | 'series'>;

/** The charts of the measures chosen, in order; a measure just picked says it is on its way. */
const ChartGrid = ({
  chosen,
  available,
  seriesOf,
  axis,
  common,
}: {
  chosen: readonly string[];
  available: readonly ChartMeasure[];
  seriesOf: (key: string) => ChartSeries[] | undefined;
  axis: ChartAxis;
  common: ChartCommon;
}) => (
  <div className="tgrid" data-axis={axis}>
    {chosen.map((key) => {
      const m = available.find((x) => x.key === key)!;
      const series = seriesOf(key);
      // A measure just picked, on its way from the host.
      if (!series)
        return (
          <p key={key} className="muted">
            Loading {m.label}…
          </p>
        );
      return <TimelineChart key={key} measure={m} series={series} {...common} />;
    })}
  </div>
);

export const Timeline = memo(function Timeline({
  studyId,
  participantId,
  who,
  onLoaded,
  onChartsDrawn,
}: {
  studyId: number;
  participantId: number;
  /**
   * Whose charts they are ("Participant P-01"), asked when a chart is saved: the page's participant
   * may arrive after the timeline, and its arrival must not make the timeline again.
   */
  who: () => string;
  /** The timeline as first received (the page header says whether results are simulated). */
  onLoaded?: (t: TimelineData) => void;
  /**
   * Told once, when the first charts are drawn (those near the window draw in the same frame), or once
   * the timeline is in hand when it has no chart to draw: the page makes its sections below then.
   */
  onChartsDrawn?: () => void;
}) {
  const [, navigate] = useLocation();
  // k is the study's: chosen here or on the change statistics page, it holds for every participant.
  const [draft, setDraft] = useState<string | null>(null);
  const saveK = useAction('reliability.setBaselineSessions');
  const { choice, choose, known: choiceKnown } = useChartChoice(studyId);
  // Recordings dated after a withdrawal are left out of baselines and changes unless counted here.
  const [countLate, setCountLate] = useState(false);
  const k = countLate ? { includeAfterWithdrawal: true } : {};
  const { q, seriesOf, setPicked } = useTimelineAnswer(participantId, k, onLoaded);
  const shown = draft ?? String(q.data?.baselineSessions ?? DEFAULT_BASELINE_SESSIONS);

  const sessions = useMemo(() => new Map((q.data?.sessions ?? []).map((s) => [s.recordingId, s])), [q.data]);
  const place = useMemo(
    () =>
      axisPlacement(choice.axis, q.data?.sessions ?? [], q.data?.design ?? { visits: [], baseline: null }),
    [choice.axis, q.data],
  );
  const available = useMemo(
    () => (q.data?.available ?? []).flatMap((a) => chartMeasure(a.key) ?? []),
    [q.data],
  );
  // The measures shown: the choice; before the stored choice has arrived, those the host applied it to.
  const sent = q.data?.measures;
  const chosen = useMemo(() => {
    const keys = new Set(available.map((m) => m.key));
    const base =
      choice.measures ?? (choiceKnown ? defaultMeasures(available) : (sent?.map((m) => m.key) ?? []));
    return base.filter((k) => keys.has(k));
  }, [choice.measures, choiceKnown, available, sent]);
  const hasVisits = (q.data?.design.visits.length ?? 0) > 0;
  const t0 = q.data;
  const chartDrawn = useChartsDrawn(
    onChartsDrawn,
    t0 !== undefined && (t0.available.length === 0 || chosen.length === 0),
  );
  const open = useCallback(
    (recordingId: number) => navigate(paths.study(studyId).recording(recordingId)),
    [navigate, studyId],
  );
  const href = useCallback((recordingId: number) => paths.study(studyId).recording(recordingId), [studyId]);
  // The formatters the charts' first drawing needs, made while the timeline is on its way.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 0));
    idle(warmChartFormatters);
  }, []);

  const commit = (v: string) => {
    setDraft(v);
    const k = baselineSessionsOf(v);
    if (k !== null && k !== q.data?.baselineSessions) void saveK.run({ studyId, baselineSessions: k });
  };

  const charts = (t: TimelineData) => (
    <>
      <BaselineExplained sessions={t.sessions.length} baselineSessions={t.baselineSessions} />
      <MeasurePicker
        available={available}
        chosen={chosen}
        onChange={(measures) => {
          setPicked(measures);
          choose({ ...choice, measures });
        }}
      />
      {t.versions.length > 1 && <TwoVersionsNotice versions={t.versions} />}
      <Legend
        versions={t.versions}
        sessions={t.sessions}
        // Over the charts shown, whichever answer each is drawn from (after "Show all" most
        // come from the full answer, not from `t`: seriesOf).
        flagged={flaggedOn(chosen, seriesOf)}
        excluded={t.sessions.filter((s) => s.excluded !== null).length}
        outside={choice.axis === 'visit' && place.visitNames ? place.outside.size : null}
        local={chosen.some((key) => chartMeasure(key)?.analysis === LOCAL_ANALYSIS)}
      />
      {chosen.length === 0 && (
        <p className="muted">No measure is chosen: pick some under “Measures shown”.</p>
      )}
      <ChartGrid
        chosen={chosen}
        available={available}
        seriesOf={seriesOf}
        axis={choice.axis}
        common={{
          sessions,
          axis: choice.axis,
          xOf: place.xOf,
          onOpen: open,
          recordingHref: href,
          who,
          baselineSessions: t.baselineSessions,
          outside: place.outside,
          visitNames: place.visitNames,
          hasVisits,
          onDrawn: chartDrawn,
          ...(place.span ? { span: place.span } : {}),
        }}
      />
    </>
  );

  return (
    <section className="section" aria-labelledby="timeline-h">
      <TimelineControls
        studyId={studyId}
        afterWithdrawal={q.data?.sessions.some((s) => s.afterWithdrawal) ?? false}
        countLate={countLate}
        setCountLate={setCountLate}
        axis={choice.axis}
        axisHint={place.note ?? PAGE_AXIS_MEANING[choice.axis]}
        setAxis={(axis) => choose({ ...choice, axis })}
        baseline={shown}
        setBaseline={commit}
        baselineHint={q.data ? `Baseline: ${baselineRuleText(q.data.baselineRule)}` : undefined}
        saveError={saveK.error ? saveK.error.message : null}
      />
      <QueryView q={q} loading="Loading the timeline…">
        {(t) =>
          t.available.length === 0 ? (
            <Empty title="No results yet">
              <p>
                Charts appear once at least one of this participant’s recordings has been analysed. Recordings
                still processing are listed below.
              </p>
            </Empty>
          ) : (
            charts(t)
          )
        }
      </QueryView>
    </section>
  );
});
