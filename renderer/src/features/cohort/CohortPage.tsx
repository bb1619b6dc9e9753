/**
 * The cohort view: one measure across the study's participants — each participant's
 * trajectory, the median and interquartile band per visit or week, grouped and coloured by a participant
 * attribute — in one API version at a time (v1.2 and v1.3 are never mixed). The chart is the same SVG
 * that "Save as SVG" writes; its summary and a table of the bins say the same in words. The participants'
 * attributes are imported here from a CSV.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'wouter';
import { ANALYSIS_TYPES } from '../../../../shared/api/vocabulary';
import type { SeriesSource } from '../../../../shared/contract/timeline.contract';
import { CHART_MEASURES, LOCAL_ANALYSIS, type ChartMeasure } from '../../../../shared/timeline-measures';
import { AXIS_LABEL, AXIS_MEANING, CHART_AXES, type ChartAxis } from '../../../../shared/chart-axis';
import { binOf } from '../../../../shared/cohort-stats';
import { Empty, Notice, QueryView } from '../../components/Feedback';
import { Checkbox, SelectField } from '../../components/Form';
import { PageHeader } from '../../components/Page';
import { SaveChart } from '../../components/SaveChart';
import { useChartColours } from '../../components/chart-theme';
import { plotLayout, plotSvg, type PlotModel } from '../../components/chart-svg';
import { axisTickLabel } from '../../components/timeline-axis';
import { useCall } from '../../lib/api';
import { fmtNumber, plural } from '../../lib/format';
import { ANALYSIS_LABEL } from '../../lib/labels';
import { AttributesPanel } from './AttributesPanel';
import { cohortModel, groupsOf, type CohortGroup } from './cohort-model';

const NUMERIC = CHART_MEASURES.filter((m) => m.valueType !== 'category');
const LOCAL_GROUP = 'Computed here (local acoustic measures)';
/** Labels that more than one analysis uses ("Speech rate"): their options say which analysis. */
const SHARED_LABELS = new Set(
  NUMERIC.filter((m, i) => NUMERIC.findIndex((x) => x.label === m.label) !== i).map((m) => m.label),
);
const analysisName = (m: ChartMeasure) =>
  m.analysis === LOCAL_ANALYSIS ? 'computed here' : ANALYSIS_LABEL[m.analysis];
/** A measure as the list names it: its analysis said where another analysis has a measure of that name. */
export const measureOption = (m: ChartMeasure) =>
  SHARED_LABELS.has(m.label) ? `${m.label} (${analysisName(m)})` : m.label;

/**
 * Each participant's line, named on hover and on keyboard focus: a transparent copy of the chart's
 * lines over its picture, one focusable line per participant, with the participant's code beside it.
 */
const ParticipantLines = ({ model, groups }: { model: PlotModel; groups: readonly CohortGroup[] }) => {
  const { W, H, X, Y } = plotLayout(model);
  return (
    <svg className="cohort-lines" viewBox={`0 0 ${W} ${H}`} aria-label="Participants’ lines" role="group">
      {groups.flatMap((g) =>
        g.participants.map((p) => {
          const pts = p.points.map((pt) => `${X(pt.x)},${Y(pt.y)}`).join(' ');
          const last = p.points.at(-1)!;
          return (
            <g
              key={`${g.name}-${p.code}`}
              className="cohort-line"
              tabIndex={0}
              role="img"
              aria-label={`${p.code}${g.name !== 'All participants' ? ` (${g.name})` : ''}: ${p.points.map((pt) => fmtNumber(pt.y)).join(', ')}`}
              data-code={p.code}
            >
              <polyline points={pts} className="cohort-line-hit" />
              <polyline points={pts} className="cohort-line-shown" style={{ stroke: g.colour }} />
              {p.points.map((pt, i) => (
                <circle
                  key={i}
                  cx={X(pt.x)}
                  cy={Y(pt.y)}
                  r={4}
                  className="cohort-line-dot"
                  style={{ fill: g.colour }}
                />
              ))}
              <text x={X(last.x) + 8} y={Y(last.y) - 8} className="cohort-line-name">
                {p.code}
              </text>
            </g>
          );
        }),
      )}
    </svg>
  );
};

/** Each participant's value per visit or week (the mean where they have several there), by group. */
const ParticipantTable = ({
  groups,
  groupBy,
  binName,
  axis,
}: {
  groups: readonly CohortGroup[];
  groupBy: string | null;
  binName: (b: number) => string;
  axis: ChartAxis;
}) => {
  const bins = [...new Set(groups.flatMap((g) => g.bins.map((b) => b.bin)))].sort((a, b) => a - b);
  const valueAt = (points: readonly { x: number; y: number }[], bin: number) => {
    const ys = points.filter((p) => binOf(axis, p.x) === bin).map((p) => p.y);
    return ys.length ? fmtNumber(ys.reduce((s, y) => s + y, 0) / ys.length) : '—';
  };
  return (
    <details className="tchart-table cohort-participants">
      <summary>Each participant’s values as a table</summary>
      <div className="table-scroll" role="region" aria-label="Each participant’s values" tabIndex={0}>
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Participant</th>
              {groupBy && <th scope="col">{groupBy}</th>}
              {bins.map((b) => (
                <th scope="col" key={b}>
                  {binName(b)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {groups.flatMap((g) =>
              g.participants.map((p) => (
                <tr key={`${g.name}-${p.code}`}>
                  <th scope="row">{p.code}</th>
                  {groupBy && <td>{g.name}</td>}
                  {bins.map((b) => (
                    <td key={b}>{valueAt(p.points, b)}</td>
                  ))}
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
    </details>
  );
};

/** The median and interquartile range of each group per visit or week, as a table. */
const MedianTable = ({
  measure,
  groups,
  groupBy,
  binName,
  axis,
}: {
  measure: ChartMeasure;
  groups: readonly CohortGroup[];
  groupBy: string | null;
  binName: (b: number) => string;
  axis: ChartAxis;
}) => (
  <details className="tchart-table">
    <summary>Medians and quartiles as a table</summary>
    <div className="table-scroll">
      <table className="table compact">
        <caption className="sr-only">
          {measure.label}: median and interquartile range per {axis === 'visit' ? 'visit' : 'week'}
        </caption>
        <thead>
          <tr>
            <th scope="col">{groupBy ?? 'Group'}</th>
            <th scope="col">{axis === 'visit' ? 'Visit' : 'Week'}</th>
            <th scope="col">Participants with a value (n)</th>
            <th scope="col">Median</th>
            <th scope="col">Interquartile range</th>
          </tr>
        </thead>
        <tbody>
          {groups.flatMap((g) =>
            g.bins.map((b) => (
              <tr key={`${g.name}-${b.bin}`}>
                <th scope="row">{g.name}</th>
                <td>{binName(b.bin)}</td>
                <td>{b.n}</td>
                <td>{fmtNumber(b.median)}</td>
                <td>
                  {fmtNumber(b.q1)} – {fmtNumber(b.q3)}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  </details>
);

/** The measure list: the service's measures under their analysis, then those computed here. */
const MeasurePicker = ({ value, onChange }: { value: string; onChange: (key: string) => void }) => (
  <SelectField label="Measure" value={value} onChange={(e) => onChange(e.target.value)}>
    {[...ANALYSIS_TYPES, LOCAL_ANALYSIS].map((type) => (
      <optgroup
        key={type}
        label={
          type === LOCAL_ANALYSIS ? LOCAL_GROUP : ANALYSIS_LABEL[type as (typeof ANALYSIS_TYPES)[number]]
        }
      >
        {NUMERIC.filter((m) => m.analysis === type).map((m) => (
          <option key={m.key} value={m.key}>
            {measureOption(m)}
          </option>
        ))}
      </optgroup>
    ))}
  </SelectField>
);

interface CohortChoices {
  readonly measureKey: string;
  readonly axis: ChartAxis;
  readonly groupBy: string | null;
  readonly version: SeriesSource | undefined;
  /** Values dated after a participant's withdrawal: counted (true) or left out. */
  readonly countLate: boolean;
}

/** What the chart shows: measure, time axis, grouping, API version, and whether late values count. */
const CohortControls = ({
  choices,
  change,
  attributeKeys,
  versions,
  late,
}: {
  choices: CohortChoices;
  change: (c: Partial<CohortChoices>) => void;
  attributeKeys: readonly string[] | undefined;
  versions: readonly SeriesSource[];
  late: number;
}) => (
  <div className="cohort-controls">
    <MeasurePicker value={choices.measureKey} onChange={(measureKey) => change({ measureKey })} />
    <SelectField
      label="Time axis"
      value={choices.axis}
      hint={AXIS_MEANING[choices.axis]}
      onChange={(e) => change({ axis: e.target.value as ChartAxis })}
    >
      {CHART_AXES.map((a) => (
        <option key={a} value={a}>
          {AXIS_LABEL[a]}
        </option>
      ))}
    </SelectField>
    <SelectField
      label="Group by"
      value={choices.groupBy ?? ''}
      hint={
        attributeKeys?.length
          ? undefined
          : 'No participant attributes yet: import them below, or add them on a participant’s page.'
      }
      onChange={(e) => change({ groupBy: e.target.value || null })}
    >
      <option value="">No grouping (whole cohort)</option>
      {attributeKeys?.map((k) => (
        <option key={k} value={k}>
          {k}
        </option>
      ))}
    </SelectField>
    {versions.length > 1 && (
      <SelectField
        label="API version"
        value={choices.version}
        hint="v1.2 and v1.3 results come from different models: one at a time."
        onChange={(e) => change({ version: e.target.value as SeriesSource })}
      >
        {versions.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </SelectField>
    )}
    {late > 0 && (
      <Checkbox
        label={`Count the ${late === 1 ? 'value' : `${late} values`} recorded after a participant’s withdrawal`}
        hint={
          choices.countLate
            ? 'Counted in the lines, medians and tables.'
            : 'Left out of the lines, medians and tables: the participant had withdrawn.'
        }
        checked={choices.countLate}
        onChange={(countLate) => change({ countLate })}
      />
    )}
  </div>
);

/** The chart with each line named, its summary in words, and its two tables. */
const CohortFigure = ({
  model,
  src,
  measure,
  groups,
  choices,
  versions,
  binName,
}: {
  model: PlotModel;
  src: string;
  measure: ChartMeasure;
  groups: readonly CohortGroup[];
  choices: CohortChoices;
  versions: readonly SeriesSource[];
  binName: (b: number) => string;
}) => (
  <figure className="cohort-figure" aria-labelledby="cohort-t" aria-describedby="cohort-s">
    <figcaption id="cohort-t" className="sr-only">
      {model.title}
    </figcaption>
    {versions.length > 1 && (
      <Notice tone="warn" title="Two API versions">
        <p>
          This study has {measure.label} from API {versions.join(' and ')}; the chart shows {choices.version}{' '}
          only. Choose the other under “API version”.
        </p>
      </Notice>
    )}
    {/* Narrow windows (200 % zoom): the chart keeps a readable size and scrolls inside itself. */}
    <div className="chart-scroll">
      <div className="cohort-plot">
        <img
          className="cohort-chart"
          src={src}
          alt=""
          data-groups={groups.length}
          data-participants={groups.reduce((k, g) => k + g.participants.length, 0)}
        />
        <ParticipantLines model={model} groups={groups} />
      </div>
    </div>
    <p id="cohort-s" className="small muted">
      {model.subtitle} n above a median: the participants with a value there.{' '}
      {groups
        .map(
          (g) =>
            `${g.name}: ${plural(g.participants.length, 'participant')}${g.bins.length ? `, median ${fmtNumber(g.bins[0]!.median)} at ${binName(g.bins[0]!.bin).toLowerCase()} and ${fmtNumber(g.bins.at(-1)!.median)} at ${binName(g.bins.at(-1)!.bin).toLowerCase()}` : ''}`,
        )
        .join('; ')}
      .
    </p>
    <SaveChart what={measure.label} model={() => model} />
    <MedianTable
      measure={measure}
      groups={groups}
      groupBy={choices.groupBy}
      binName={binName}
      axis={choices.axis}
    />
    <ParticipantTable groups={groups} groupBy={choices.groupBy} binName={binName} axis={choices.axis} />
  </figure>
);

/** A bin's name: the schedule's visit name, a span of days, or the week's first day. */
const binNamer = (axis: ChartAxis, visitNames: ReadonlyMap<number, string>) => {
  const tick = axisTickLabel(axis, 0, 1);
  return (b: number) =>
    axis === 'visit'
      ? (visitNames.get(b) ?? `Visit ${b}`)
      : axis === 'days'
        ? `Days ${b}–${b + 6}`
        : `Week of ${tick(b)}`;
};

export const CohortPage = () => {
  const params = useParams<{ id: string }>();
  const studyId = Number(params.id);
  const study = useCall('studies.get', { studyId });
  const [picked, setPicked] = useState<CohortChoices>({
    measureKey: NUMERIC[0]!.key,
    axis: 'visit',
    groupBy: null,
    version: undefined,
    countLate: false,
  });
  const design = useCall('visits.design', { studyId });
  const cohort = useCall(
    'cohort.measure',
    { studyId, measureKey: picked.measureKey, ...(picked.countLate ? { includeAfterWithdrawal: true } : {}) },
    { placeholderData: keepPreviousData },
  );
  const attributes = useCall('cohort.attributes', { studyId });
  const colours = useChartColours();
  const measure = NUMERIC.find((m) => m.key === picked.measureKey)!;
  const versions = cohort.data?.versions ?? [];
  const version = picked.version && versions.includes(picked.version) ? picked.version : versions.at(-1);
  const choices: CohortChoices = { ...picked, version };
  const { axis, groupBy } = picked;
  const groups = useMemo(
    () => (cohort.data && version ? groupsOf(cohort.data, version, axis, groupBy) : []),
    [cohort.data, version, axis, groupBy],
  );
  // The schedule's visit names (Baseline, Week 1…) on the visit axis, by their place in the schedule.
  const visitNames = useMemo(
    () => new Map(design.data?.visits.map((v) => [v.position, v.name]) ?? []),
    [design.data],
  );
  const model = useMemo(
    () =>
      version
        ? cohortModel(measure, version, axis, groupBy, groups, colours, study.data?.name ?? 'Study', (b) =>
            visitNames.get(b),
          )
        : null,
    [measure, version, axis, groupBy, groups, colours, study.data?.name, visitNames],
  );
  const src = useMemo(
    () => (model ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(plotSvg(model))}` : ''),
    [model],
  );

  return (
    <div className="page">
      <PageHeader
        title="Cohort"
        subtitle="One measure across the study’s participants: each one’s course, and the median and interquartile range of each group."
      />
      <CohortControls
        choices={choices}
        change={(c) => setPicked((p) => ({ ...p, ...c }))}
        attributeKeys={attributes.data?.keys.map((k) => k.key)}
        versions={versions}
        late={cohort.data?.afterWithdrawal.count ?? 0}
      />
      <QueryView q={cohort} loading="Loading the cohort…">
        {() =>
          !model || groups.length === 0 ? (
            <Empty title={`No values of ${measure.label} yet`}>
              <p>The chart appears once some participants’ recordings have results for this measure.</p>
            </Empty>
          ) : (
            <CohortFigure
              model={model}
              src={src}
              measure={measure}
              groups={groups}
              choices={choices}
              versions={versions}
              binName={binNamer(axis, visitNames)}
            />
          )
        }
      </QueryView>

      <AttributesPanel studyId={studyId} attributes={attributes} />
    </div>
  );
};
