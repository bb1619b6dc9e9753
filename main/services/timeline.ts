/**
 * A participant's timeline: every measure's values by session, one series per API version (v1.2 and
 * v1.3 results come from different models and field definitions, so they are never joined into one
 * line or one baseline), each with its within-person baseline (shared/baseline.ts; only once all k
 * sessions are present) and the latest session's change from it, scaled with the SD floor and judged
 * by the reliable change index against the study's cohort (shared/change.ts). Sessions carry markers for audio that was marginal or altered; a value the
 * service sent outside the specification carries its data-quality flags (the value is kept as received).
 */
import { MEASURES } from '../../shared/api/measures';
import type { ApiVersion } from '../../shared/api/vocabulary';
import { baselineOf } from '../../shared/baseline';
import { changeStats, Trend } from '../../shared/change';
import { reliabilityOf } from '../../shared/reliability';
import type { PointFlag, Timeline } from '../../shared/contract/timeline.contract';
import type { VerdictView } from '../../shared/study';
import type { Db } from '../db/open';
import { flagsOfRecordings } from '../db/repos/data-quality.repo';
import { studyOfParticipant } from '../db/repos/change.repo';
import { participantCodeById, timelineSessions, timelineValues } from '../db/repos/timeline.repo';
import { changeSettings, CohortReferences } from './change-reference';

/** Detected speech under this is close enough to the 30-second minimum to mark the session. */
export const MARGINAL_SPEECH_SECONDS = 36;

export const participantTimeline = (
  db: Db,
  participantId: number,
  /** k for this view; undefined: the study's setting. */
  k?: number,
): Timeline | null => {
  const p = participantCodeById(db, participantId);
  if (!p) return null;
  const studyId = studyOfParticipant(db, participantId)!;
  const settings = changeSettings(db, studyId);
  const baselineSessions = k ?? settings.baselineSessions;
  const cohort = CohortReferences.of(db, studyId, baselineSessions);
  const sessions = timelineSessions(db, participantId);
  const sessionOf = new Map(sessions.map((s) => [s.id, s]));
  const flagsOf = flagsOfRecordings(
    db,
    sessions.map((s) => s.id),
  );
  const pointFlags = (recordingId: number, key: string): PointFlag[] =>
    (flagsOf.get(recordingId) ?? [])
      .filter((f) => f.measures.includes(key))
      .map((f) => ({ code: f.code, received: f.received, expected: f.expected }));

  // key → version → points (the index measure_timeline reads them in one range; sorted by session time below).
  const byMeasure = new Map<
    string,
    Map<ApiVersion, { recordingId: number; recordedAt: string; value: number | string; flags: PointFlag[] }[]>
  >();
  // Values of recordings that are no longer uploaded (cancelled, moved to another participant) are left out,
  // and each point takes its recording's time (the copy in measure_values is only there for the index).
  for (const v of timelineValues(db, participantId)) {
    const session = sessionOf.get(v.recording_id);
    if (!session) continue;
    const version = session.api_version;
    let perVersion = byMeasure.get(v.measure_key);
    if (!perVersion) byMeasure.set(v.measure_key, (perVersion = new Map()));
    let points = perVersion.get(version);
    if (!points) perVersion.set(version, (points = []));
    points.push({
      recordingId: v.recording_id,
      recordedAt: session.recorded_at,
      value: v.value_num ?? v.value_text!,
      flags: pointFlags(v.recording_id, v.measure_key),
    });
  }

  const versions = [...new Set(sessions.map((s) => s.api_version))].sort();
  const measures = MEASURES.filter((m) => byMeasure.has(m.key)).map((m) => ({
    key: m.key,
    series: versions.flatMap((version) => {
      const points = (byMeasure.get(m.key)?.get(version) ?? []).sort(
        (a, b) => a.recordedAt.localeCompare(b.recordedAt) || a.recordingId - b.recordingId,
      );
      if (points.length === 0) return [];
      const last = points.at(-1)!;
      const numeric = points.every((pt) => typeof pt.value === 'number');
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
          latest: last.value as number,
          cohort: cohort.get(m.key, version),
          reliability: reliabilityOf(m.key, settings.reliabilities),
          trendPerWeek: trend.perWeek(),
        });
      }
      return [
        {
          apiVersion: version,
          points,
          baseline,
          baselinePresent: Math.min(points.length, baselineSessions),
          latest: { value: last.value, recordedAt: last.recordedAt },
          change,
        },
      ];
    }),
  }));

  return {
    participantId: p.id,
    code: p.code,
    baselineSessions,
    versions,
    sessions: sessions.map((s) => {
      const speech = s.svc_speech_seconds ?? s.speech_estimate_seconds;
      const verdict = s.verdict ? (JSON.parse(s.verdict) as VerdictView) : null;
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
      };
    }),
    measures,
  };
};
