/** A study's settings for change statistics (k and reliabilities), for the window and the command line. */
import { MEASURES } from '../../shared/api/measures';
import { baselineRule } from '../../shared/baseline';
import type { ChangeSettingsView } from '../../shared/contract/reliability.contract';
import type { Timeline } from '../../shared/contract/timeline.contract';
import {
  MAX_RELIABILITY,
  MEASURE_RELIABILITY_GROUP,
  MIN_RELIABILITY,
  RELIABILITY_GROUPS,
  reliabilityOf,
} from '../../shared/reliability';
import {
  clearStudyReliability,
  setStudyBaselineSessions,
  setStudyReliability,
  studyBaselineSessions,
  studyReliabilities,
} from '../db/repos/change.repo';
import { participantIdByCode } from '../db/repos/curation.repo';
import { studyName } from '../db/repos/studies.repo';
import { designOf } from '../db/repos/study-design.repo';
import { changeSettings } from '../change/change-reference';
import type { ServiceContext } from './service-context';
import { participantTimeline } from '../change/timeline';

export type ChangeSettingsRefusal = 'no_study' | 'unknown_measure' | 'out_of_range';

export interface ChangeSettingsService {
  changeSettings(studyId: number): Promise<ChangeSettingsView | null>;
  setReliability(
    studyId: number,
    measureKey: string,
    r: number,
    note: string,
  ): Promise<ChangeSettingsView | ChangeSettingsRefusal>;
  resetReliability(studyId: number, measureKey: string): Promise<ChangeSettingsView | ChangeSettingsRefusal>;
  setBaselineSessions(studyId: number, k: number | null): Promise<ChangeSettingsView | ChangeSettingsRefusal>;
  /** The participant's timeline by code (the command line's view of their change statistics); null: no such participant. */
  timelineByCode(studyId: number, code: string, k?: number): Promise<Timeline | null>;
}

const NUMERIC = new Set(MEASURES.filter((m) => m.valueType !== 'category').map((m) => m.key));

export const changeSettingsService = (ctx: ServiceContext): ChangeSettingsService => {
  const { store } = ctx;
  const view = async (studyId: number): Promise<ChangeSettingsView | null> => {
    if ((await studyName(store, studyId)) === null) return null;
    const s = await changeSettings(store, studyId);
    const notes = new Map((await studyReliabilities(store, studyId)).map((r) => [r.measure_key, r.note]));
    return {
      studyId,
      baselineSessions: s.baselineSessions,
      baselineSessionsIsDefault: (await studyBaselineSessions(store, studyId)) === null,
      baselineRule: s.baselineRule,
      fallback: baselineRule(null, (await designOf(store, studyId))?.visits ?? []),
      measures: MEASURES.filter((m) => NUMERIC.has(m.key)).map((m) => {
        const rel = reliabilityOf(m.key, s.reliabilities);
        const g = MEASURE_RELIABILITY_GROUP[m.key];
        return {
          key: m.key,
          label: m.label,
          analysis: m.analysis,
          kind: m.kind,
          r: rel?.r ?? null,
          source: rel?.source ?? null,
          defaultR: g ? RELIABILITY_GROUPS[g].r : null,
          group: g ? RELIABILITY_GROUPS[g].label : null,
          basis: g ? RELIABILITY_GROUPS[g].basis : null,
          note: notes.get(m.key) ?? '',
        };
      }),
    };
  };
  const checked = async (studyId: number, measureKey: string): Promise<ChangeSettingsRefusal | null> =>
    (await studyName(store, studyId)) === null
      ? 'no_study'
      : NUMERIC.has(measureKey)
        ? null
        : 'unknown_measure';
  return {
    changeSettings: view,
    async setReliability(studyId, measureKey, r, note) {
      const refusal = await checked(studyId, measureKey);
      if (refusal) return refusal;
      if (!(r >= MIN_RELIABILITY && r <= MAX_RELIABILITY)) return 'out_of_range';
      await setStudyReliability(store, studyId, { measureKey, r, note, at: ctx.iso() });
      return (await view(studyId))!;
    },
    async resetReliability(studyId, measureKey) {
      const refusal = await checked(studyId, measureKey);
      if (refusal) return refusal;
      await clearStudyReliability(store, studyId, measureKey);
      return (await view(studyId))!;
    },
    async setBaselineSessions(studyId, k) {
      if (k !== null && !(Number.isInteger(k) && k >= 1 && k <= 20)) return 'out_of_range';
      return (await setStudyBaselineSessions(store, studyId, k)) ? (await view(studyId))! : 'no_study';
    },
    async timelineByCode(studyId, code, k) {
      const id = await participantIdByCode(store, studyId, code);
      return id === null ? null : participantTimeline(ctx.store, id, k);
    },
  };
};
