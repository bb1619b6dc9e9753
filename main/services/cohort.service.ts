/**
 * The cohort view's service: one measure across a study's participants (one series per API
 * version and participant, never joined), the participants' researcher-defined attributes (set one by
 * one, or imported from a CSV), and the researcher's chart choices per study.
 */
import { MEASURES } from '../../shared/api/measures';
import type { SeriesSource } from '../../shared/contract/timeline.contract';
import { localKeyOf } from '../../shared/timeline-measures';
import {
  type AttributesImport,
  type AttributesOfStudy,
  type ChartChoice,
  type Cohort,
} from '../../shared/contract/cohort.contract';
import { err, ok, type Result } from '../../shared/result';
import {
  attributesOfStudy,
  cohortLocalValues,
  cohortValues,
  participantIdsByCode,
  saveChartChoice,
  studyExists,
  studyOfParticipant,
  writeAttributes,
  type CohortValueRow,
} from '../db/repos/cohort.repo';
import { participantChartChoice, PARTICIPANT_CHARTS } from '../change/timeline';
import { buildVisitLedger, type VisitLedger } from '../design/visit-ledger';
import { readAttributesCsv } from '../import/attributes-csv';
import { recordedAfterWithdrawal } from '../../shared/withdrawal';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';

const DAY_MS = 86_400_000;

export interface CohortService {
  /**
   * One measure across the study's participants; null when there is no such study. Values dated after
   * their participant's withdrawal are left out unless included (then marked).
   */
  cohort(studyId: number, measureKey: string, includeAfterWithdrawal?: boolean): Promise<Cohort | null>;
  attributes(studyId: number): Promise<AttributesOfStudy | null>;
  /** Sets (value) or removes (null) attributes of one participant; null when there is no such participant. */
  setAttributes(
    participantId: number,
    changes: readonly { key: string; value: string | null }[],
  ): Promise<Record<string, string> | null>;
  /** Reads a CSV of participant_code,attr… and sets what it holds (empty cells leave a value as it is). */
  importAttributes(studyId: number, csv: string): Promise<Result<AttributesImport, ServiceProblem>>;
  chartChoice(studyId: number): Promise<ChartChoice>;
  saveChartChoice(studyId: number, choice: ChartChoice): Promise<ChartChoice>;
}

type Place = { readonly days: number; readonly visit: number | null };

const unscheduledPlace = (v: CohortValueRow, order: number): Place => ({
  days: (Date.parse(v.recorded_at) - Date.parse(v.first_at)) / DAY_MS,
  visit: order,
});

const scheduledPlace = (
  ledger: VisitLedger,
  place: ReadonlyMap<number, number>,
  v: CohortValueRow,
): Place => {
  const r = ledger.byRecording.get(v.recording_id);
  const baseline = r?.participant.baseline?.date;
  return {
    days:
      baseline === undefined
        ? unscheduledPlace(v, 0).days
        : (Date.parse(`${r!.date}T00:00:00Z`) - Date.parse(`${baseline}T00:00:00Z`)) / DAY_MS,
    visit: r?.assignment.visitId != null ? (place.get(r.assignment.visitId) ?? null) : null,
  };
};

export const cohortService = (ctx: ServiceContext): CohortService => {
  const { store } = ctx;
  const attributesBy = async (studyId: number) => {
    const by = new Map<number, Record<string, string>>();
    for (const a of await attributesOfStudy(store, studyId)) {
      let r = by.get(a.participant_id);
      if (!r) by.set(a.participant_id, (r = {}));
      r[a.key] = a.value;
    }
    return by;
  };
  /** Attribute changes land together, in one transaction. */
  const writeTogether = (changes: readonly { participantId: number; key: string; value: string | null }[]) =>
    store.transaction((tx) => writeAttributes(tx, changes, ctx.iso()), { repeatable: true });
  return {
    async cohort(studyId, measureKey, includeAfterWithdrawal = false) {
      if (!(await studyExists(store, studyId))) return null;
      const attrs = await attributesBy(studyId);
      const local = localKeyOf(measureKey);
      const numeric = local !== null || MEASURES.find((m) => m.key === measureKey)?.valueType !== 'category';
      // With a visit schedule, the visit axis and day 0 are the design's (the same rules, one ledger).
      const ledger = await buildVisitLedger(store, studyId, ctx.now());
      const scheduled = ledger !== null && ledger.design.visits.length > 0 ? ledger : null;
      const place = new Map(scheduled?.design.visits.map((d) => [d.id, d.position]));
      const participants = new Map<number, Cohort['participants'][number]>();
      const versions = new Set<SeriesSource>();
      const values =
        local !== null
          ? await cohortLocalValues(store, studyId, local)
          : await cohortValues(store, studyId, measureKey);
      const late = (recordingId: number) => {
        const r = ledger?.byRecording.get(recordingId);
        return r !== undefined && recordedAfterWithdrawal(r.date, r.participant);
      };
      let lateCount = 0;
      for (const v of values) {
        const afterWithdrawal = late(v.recording_id);
        if (afterWithdrawal) lateCount++;
        if (afterWithdrawal && !includeAfterWithdrawal) continue;
        let p = participants.get(v.participant_id);
        if (!p)
          participants.set(
            v.participant_id,
            (p = {
              participantId: v.participant_id,
              code: v.code,
              attributes: attrs.get(v.participant_id) ?? {},
              series: [],
            }),
          );
        let s = p.series.find((x) => x.apiVersion === v.api_version);
        if (!s) p.series.push((s = { apiVersion: v.api_version, points: [] }));
        versions.add(v.api_version);
        const value = v.value_num ?? v.value_text!;
        if (numeric && typeof value !== 'number') continue;
        s.points.push({
          recordingId: v.recording_id,
          recordedAt: v.recorded_at,
          session: v.session_label,
          ...(scheduled ? scheduledPlace(scheduled, place, v) : unscheduledPlace(v, s.points.length + 1)),
          value,
          afterWithdrawal,
        });
      }
      return {
        studyId,
        measureKey,
        afterWithdrawal: { count: lateCount, included: includeAfterWithdrawal },
        versions: [...versions].sort(),
        participants: [...participants.values()],
      };
    },

    async attributes(studyId) {
      if (!(await studyExists(store, studyId))) return null;
      const by = await attributesBy(studyId);
      const keys = new Map<string, Set<string>>();
      for (const r of by.values())
        for (const [k, v] of Object.entries(r)) {
          let vs = keys.get(k);
          if (!vs) keys.set(k, (vs = new Set()));
          vs.add(v);
        }
      const codes = await participantIdsByCode(store, studyId);
      return {
        keys: [...keys]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, vs]) => ({ key, values: [...vs].sort((a, b) => a.localeCompare(b)) })),
        participants: [...codes]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([code, participantId]) => ({ participantId, code, attributes: by.get(participantId) ?? {} })),
      };
    },

    async setAttributes(participantId, changes) {
      const studyId = await studyOfParticipant(store, participantId);
      if (studyId === undefined) return null;
      await writeTogether(
        changes.map((c) => ({ participantId, key: c.key, value: c.value === '' ? null : c.value })),
      );
      return (await attributesBy(studyId)).get(participantId) ?? {};
    },

    async importAttributes(studyId, csv) {
      if (!(await studyExists(store, studyId)))
        return err(problem('This study does not exist (any more).', 'Go back to the studies.'));
      const read = readAttributesCsv(csv);
      if (!read.ok)
        return err(
          problem(
            read.error,
            'Fix the file and import it again: participant_code, then one column per attribute.',
          ),
        );
      const ids = await participantIdsByCode(store, studyId);
      const unknown: string[] = [];
      const changes: { participantId: number; key: string; value: string }[] = [];
      let applied = 0;
      for (const r of read.value.rows) {
        const id = ids.get(r.code);
        if (id === undefined) {
          unknown.push(r.code);
          continue;
        }
        applied++;
        for (const [key, value] of r.values) changes.push({ participantId: id, key, value });
      }
      await writeTogether(changes);
      return ok({
        applied,
        keys: [...read.value.keys],
        unknownCodes: unknown,
        problems: [...read.value.problems],
      });
    },

    chartChoice: (studyId) => participantChartChoice(store, studyId),

    async saveChartChoice(studyId, choice) {
      await saveChartChoice(store, studyId, PARTICIPANT_CHARTS, JSON.stringify(choice), ctx.iso());
      return choice;
    },
  };
};
