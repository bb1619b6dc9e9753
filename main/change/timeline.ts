/**
 * A participant's timeline: every measure's values by session, one series per API version (v1.2 and
 * v1.3 results come from different models and field definitions, so they are never joined into one
 * line or one baseline), each with its within-person baseline (shared/baseline.ts; only once all k
 * sessions are present) and the latest session's change from it, scaled with the SD floor and judged
 * by the reliable change index against the study's cohort (shared/change.ts). Sessions carry markers for
 * audio that was marginal or altered, their visit in the study's design and their days since the
 * participant's baseline date (shared/visits.ts, read for this participant alone); a value the service
 * sent outside the specification carries its data-quality flags (the value is kept as received). Local
 * acoustic measures (`lm_` keys) form one 'local' series each. Recordings excluded from analysis are
 * sent marked, their values apart (`excluded`), never in a baseline, a change or a trend; so are, unless
 * the researcher includes them, recordings dated after the participant's withdrawal (shared/withdrawal.ts). Only the
 * measures asked for are read and computed: the page asks for the charts it shows.
 */
import { baselineOf } from '../../shared/baseline';
import { DEFAULT_AXIS } from '../../shared/chart-axis';
import { changeStats, Trend } from '../../shared/change';
import { reliabilityOf } from '../../shared/reliability';
import {
  STUDY_CHOICE,
  type PointFlag,
  type SeriesSource,
  type Timeline,
  type TimelineMeasures,
  type TimelinePoint,
} from '../../shared/contract/timeline.contract';
import { ChartChoiceSchema, type ChartChoice } from '../../shared/contract/cohort.contract';
import type { VisitSource } from '../../shared/states';
import type { VisitDef } from '../../shared/visits';
import {
  CHART_MEASURES,
  defaultChartMeasures,
  LOCAL_ANALYSIS,
  LOCAL_PREFIX,
  localKeyOf,
  type ChartMeasure,
} from '../../shared/timeline-measures';
import type { Queryable } from '../db/store/types';
import { chartChoice } from '../db/repos/cohort.repo';
import { flagsOfRecordings } from '../db/repos/data-quality.repo';
import { studyOfParticipant } from '../db/repos/change.repo';
import {
  participantCodeById,
  timelineLocalValues,
  timelineMeasureKeys,
  timelineSessions,
  timelineValues,
  timelineValuesOf,
  type TimelineSessionRow,
} from '../db/repos/timeline.repo';
import { participantAssignments } from '../design/visit-ledger';
import { participantStatus } from '../db/repos/participant-status.repo';
import { recordedAfterWithdrawal } from '../../shared/withdrawal';
import { changeSettings, CohortReferences, type ChangeSettings } from './change-reference';

/** The participant page's view in study_chart_choices. */
export const PARTICIPANT_CHARTS = 'participant-charts';

/** The participant page's chart choice stored for the study; none stored (or unreadable): the defaults. */
export const participantChartChoice = async (q: Queryable, studyId: number): Promise<ChartChoice> => {
  const stored = await chartChoice(q, studyId, PARTICIPANT_CHARTS);
  const parsed = stored ? ChartChoiceSchema.safeParse(JSON.parse(stored)) : null;
  return parsed?.success ? parsed.data : { measures: null, axis: DEFAULT_AXIS };
};

/** The reason shown for a session left out because it is dated after the participant's withdrawal. */
export const AFTER_WITHDRAWAL = 'recorded after the participant’s withdrawal (left out unless included)';

/** Detected speech under this is close enough to the 30-second minimum to mark the session. */
export const MARGINAL_SPEECH_SECONDS = 36;

interface Assigned {
  readonly visit: { index: number; name: string } | null;
  readonly visitSource: VisitSource;
  readonly daysSinceBaseline: number | null;
}

type Assignments = Awaited<ReturnType<typeof participantAssignments>>;
type Session = Timeline['sessions'][number];
type Series = Timeline['measures'][number]['series'][number];

/** The participant's sessions, their place in the design, and which of them are left out of the counts. */
interface SessionFacts {
  readonly sessions: TimelineSessionRow[];
  readonly sessionOf: ReadonlyMap<number, TimelineSessionRow>;
  readonly assigned: Assignments;
  readonly assignmentOf: ReadonlyMap<number, Assigned>;
  readonly afterWithdrawal: ReadonlySet<number>;
  /** Why a session is left out of baselines, changes and trends; null when it counts. */
  readonly leftOut: (s: {
    id: number;
    excluded_at: string | null;
    excluded_reason: string | null;
  }) => string | null;
}

const sessionFacts = async (
  q: Queryable,
  participantId: number,
  includeAfterWithdrawal: boolean,
): Promise<SessionFacts> => {
  // Independent reads, asked together: on a server each is a round trip (one after another, they add up).
  const [sessions, assigned, status] = await Promise.all([
    timelineSessions(q, participantId),
    participantAssignments(q, participantId),
    participantStatus(q, participantId),
  ]);
  const afterWithdrawal = new Set(
    status
      ? (assigned?.recordings ?? []).filter((r) => recordedAfterWithdrawal(r.date, status)).map((r) => r.id)
      : [],
  );
  const leftOut: SessionFacts['leftOut'] = (s) =>
    s.excluded_at !== null
      ? (s.excluded_reason ?? 'excluded')
      : !includeAfterWithdrawal && afterWithdrawal.has(s.id)
        ? AFTER_WITHDRAWAL
        : null;
  const visitOf = new Map<number, VisitDef>(assigned?.design.visits.map((v) => [v.id, v]) ?? []);
  const assignmentOf = new Map<number, Assigned>(
    (assigned?.recordings ?? []).map((r) => {
      const v = r.assignment.visitId === null ? undefined : visitOf.get(r.assignment.visitId);
      return [
        r.id,
        {
          visit: v ? { index: v.position, name: v.name } : null,
          visitSource: r.assignment.source,
          daysSinceBaseline: r.assignment.daysSinceBaseline,
        },
      ];
    }),
  );
  return {
    sessions,
    sessionOf: new Map(sessions.map((s) => [s.id, s])),
    assigned,
    assignmentOf,
    afterWithdrawal,
    leftOut,
  };
};

/** Which measures have a value (for the picker), and which of them to send. */
interface MeasureChoice {
  readonly available: readonly ChartMeasure[];
  /** The keys asked for; null: every measure with values. */
  readonly wanted: ReadonlySet<string> | null;
  readonly sent: readonly ChartMeasure[];
  readonly local: Awaited<ReturnType<typeof timelineLocalValues>>;
}

const chooseMeasures = async (
  q: Queryable,
  participantId: number,
  studyId: number,
  facts: SessionFacts,
  measures: TimelineMeasures | undefined,
): Promise<MeasureChoice> => {
  const [keys, localValues] = await Promise.all([
    timelineMeasureKeys(q, participantId),
    timelineLocalValues(q, participantId),
  ]);
  const serviceKeys = new Set(keys);
  const local = localValues.filter((v) => facts.sessionOf.has(v.recording_id));
  const localKeys = new Set(local.map((v) => `${LOCAL_PREFIX}${v.measure}`));
  const available = CHART_MEASURES.filter((m) => serviceKeys.has(m.key) || localKeys.has(m.key));
  const wanted =
    measures === STUDY_CHOICE
      ? new Set((await participantChartChoice(q, studyId)).measures ?? defaultChartMeasures(available))
      : measures
        ? new Set(measures)
        : null;
  const sent = available.filter((m) => !wanted || wanted.has(m.key));
  return { available, wanted, sent, local };
};

type PointsByMeasure = Map<string, Map<SeriesSource, TimelinePoint[]>>;

/**
 * key → series (API version, or 'local') → points. Values of recordings no longer uploaded (cancelled,
 * moved to another participant) are left out, and each point takes its recording's time (the copy in
 * measure_values is only there for the index).
 */
const pointsByMeasure = async (
  q: Queryable,
  participantId: number,
  facts: SessionFacts,
  choice: MeasureChoice,
): Promise<PointsByMeasure> => {
  const { sessions, sessionOf } = facts;
  const flagsOf = await flagsOfRecordings(
    q,
    sessions.map((s) => s.id),
  );
  const pointFlags = (recordingId: number, key: string): PointFlag[] =>
    (flagsOf.get(recordingId) ?? [])
      .filter((f) => f.measures.includes(key))
      .map((f) => ({ code: f.code, received: f.received, expected: f.expected }));
  const byMeasure: PointsByMeasure = new Map();
  const add = (key: string, source: SeriesSource, recordingId: number, value: number | string) => {
    const session = sessionOf.get(recordingId)!;
    let perSource = byMeasure.get(key);
    if (!perSource) byMeasure.set(key, (perSource = new Map()));
    let points = perSource.get(source);
    if (!points) perSource.set(source, (points = []));
    points.push({
      recordingId,
      recordedAt: session.recorded_at,
      value,
      flags: pointFlags(recordingId, key),
    });
  };
  const sentService = choice.sent.filter((m) => m.analysis !== LOCAL_ANALYSIS).map((m) => m.key);
  const serviceValues =
    choice.wanted === null
      ? await timelineValues(q, participantId)
      : sentService.length
        ? await timelineValuesOf(q, participantId, sentService)
        : [];
  for (const v of serviceValues) {
    const session = sessionOf.get(v.recording_id);
    if (session) add(v.measure_key, session.api_version, v.recording_id, v.value_num ?? v.value_text!);
  }
  const sentLocal = new Set(
    choice.sent.filter((m) => m.analysis === LOCAL_ANALYSIS).map((m) => localKeyOf(m.key)),
  );
  for (const v of choice.local)
    if (sentLocal.has(v.measure)) add(`${LOCAL_PREFIX}${v.measure}`, LOCAL_ANALYSIS, v.recording_id, v.value);
  return byMeasure;
};

/** What a series is judged against: k, the study's cohort and reliabilities. */
interface SeriesReference {
  readonly baselineSessions: number;
  readonly cohort: CohortReferences | null;
  readonly settings: ChangeSettings;
}

/** One series: its points in time order, the excluded ones apart, and the baseline, latest value and change of the rest. */
const seriesOf = (
  key: string,
  source: SeriesSource,
  all: TimelinePoint[],
  facts: SessionFacts,
  ref: SeriesReference,
): Series => {
  const { baselineSessions } = ref;
  all.sort((a, b) => a.recordedAt.localeCompare(b.recordedAt) || a.recordingId - b.recordingId);
  // Excluded recordings are shown, never counted: baseline, latest, change and trend are of the rest.
  const points = all.filter((pt) => facts.leftOut(facts.sessionOf.get(pt.recordingId)!) === null);
  const excluded = all.filter((pt) => facts.leftOut(facts.sessionOf.get(pt.recordingId)!) !== null);
  const last = points.at(-1);
  const numeric = points.length > 0 && points.every((pt) => typeof pt.value === 'number');
  const baseline = numeric
    ? baselineOf(
        points.map((pt) => ({ recordedAt: pt.recordedAt, value: pt.value as number })),
        baselineSessions,
      )
    : null;
  let change = null;
  if (numeric) {
    const trend = new Trend();
    for (const pt of points) trend.add(Date.parse(pt.recordedAt), pt.value as number);
    change = changeStats({
      k: baselineSessions,
      n: points.length,
      baseline,
      latest: last!.value as number,
      cohort: ref.cohort!.get(key, source),
      reliability: reliabilityOf(key, ref.settings.reliabilities),
      trendPerWeek: trend.perWeek(),
    });
  }
  return {
    apiVersion: source,
    points,
    excluded,
    baseline,
    baselinePresent: Math.min(points.length, baselineSessions),
    latest: last ? { value: last.value, recordedAt: last.recordedAt } : null,
    change,
  };
};

/** A session as the page shows it: its markers, its visit and whether it counts. */
const sessionView = (s: TimelineSessionRow, facts: SessionFacts): Session => {
  const speech = s.svc_speech_seconds ?? s.speech_estimate_seconds;
  const verdict = s.verdict;
  const a = facts.assignmentOf.get(s.id);
  return {
    recordingId: s.id,
    recordedAt: s.recorded_at,
    session: s.session_label,
    apiVersion: s.api_version,
    simulated: s.result_source === 'simulated',
    flags: {
      converted: s.converted === 1,
      marginalSpeech: speech !== null && speech < MARGINAL_SPEECH_SECONDS,
      isolated: s.isolate === 1,
      warnings: verdict?.findings.filter((f) => f.severity === 'warn').map((f) => f.message) ?? [],
    },
    visit: a?.visit ?? null,
    visitSource: a?.visitSource ?? 'none',
    daysSinceBaseline: a?.daysSinceBaseline ?? null,
    excluded: facts.leftOut(s),
    afterWithdrawal: facts.afterWithdrawal.has(s.id),
  };
};

/**
 * The participant's timeline. `measures`: the keys whose values to send (the charts on screen); absent,
 * every measure with values; 'study-choice', those of the study's stored chart choice (or the first two
 * of each analysis type). `available` always lists every measure with a value, for the picker.
 */
export const participantTimeline = async (
  q: Queryable,
  participantId: number,
  /** k for this view; undefined: the study's setting. */
  k?: number,
  measures?: TimelineMeasures,
  /** Count recordings dated after the participant's withdrawal; false: shown apart, like excluded ones. */
  includeAfterWithdrawal = false,
): Promise<Timeline | null> => {
  const [p, studyId] = await Promise.all([
    participantCodeById(q, participantId),
    studyOfParticipant(q, participantId),
  ]);
  if (!p || studyId === null) return null;
  const [settings, facts] = await Promise.all([
    changeSettings(q, studyId),
    sessionFacts(q, participantId, includeAfterWithdrawal),
  ]);
  const baselineSessions = k ?? settings.baselineSessions;
  const choice = await chooseMeasures(q, participantId, studyId, facts, measures);
  const byMeasure = await pointsByMeasure(q, participantId, facts, choice);

  const versions = [...new Set(facts.sessions.map((s) => s.api_version))].sort();
  const ref: SeriesReference = {
    baselineSessions,
    cohort: choice.sent.length ? await CohortReferences.of(q, studyId, baselineSessions) : null,
    settings,
  };
  const sources: readonly SeriesSource[] = [...versions, LOCAL_ANALYSIS];
  const measuresOut = choice.sent
    .filter((m) => byMeasure.has(m.key))
    .map((m) => ({
      key: m.key,
      series: sources.flatMap((source) => {
        const all = byMeasure.get(m.key)?.get(source) ?? [];
        return all.length ? [seriesOf(m.key, source, all, facts, ref)] : [];
      }),
    }));

  return {
    participantId: p.id,
    code: p.code,
    baselineSessions,
    baselineRule: settings.baselineRule,
    versions,
    sessions: facts.sessions.map((s) => sessionView(s, facts)),
    design: {
      visits: (facts.assigned?.design.visits ?? []).map((v) => ({
        index: v.position,
        name: v.name,
        targetDay: v.targetDay,
      })),
      baseline: facts.assigned?.baseline ?? null,
    },
    available: choice.available.map((m) => ({ key: m.key, analysis: m.analysis })),
    measures: measuresOut,
  };
};
