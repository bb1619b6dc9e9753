/**
 * A study's settings for change statistics and its cohort reference: one place that the timeline, the
 * summary export and the command line read, so they agree (the rules are shared/change.ts).
 */
import { baselineRule, type BaselineRule } from '../../shared/baseline';
import { cohortReference, NO_COHORT, type CohortReference } from '../../shared/change';
import {
  databaseVersion,
  studyBaselineSessions,
  studyReliabilities,
  studyValuesInTimeOrder,
} from '../db/repos/change.repo';
import { designOf } from '../db/repos/study-design.repo';
import type { Queryable } from '../db/store/types';

export interface ChangeSettings {
  /** k: the study's setting, else the schedule's (the visits before the first follow-up), else the default. */
  readonly baselineSessions: number;
  /** Where k comes from (shared/baseline.ts). */
  readonly baselineRule: BaselineRule;
  /** Reliabilities the study set, by measure key. */
  readonly reliabilities: ReadonlyMap<string, number>;
}

export const changeSettings = async (q: Queryable, studyId: number): Promise<ChangeSettings> => {
  const rule = baselineRule(
    await studyBaselineSessions(q, studyId),
    (await designOf(q, studyId))?.visits ?? [],
  );
  return {
    baselineSessions: rule.sessions,
    baselineRule: rule,
    reliabilities: new Map((await studyReliabilities(q, studyId)).map((r) => [r.measure_key, r.r])),
  };
};

/** Per store (or snapshot): the last references computed for each study and k, with the database version they are of. */
const cache = new WeakMap<Queryable, Map<string, { version: string; refs: CohortReferences }>>();

/** The cohort reference of every measure and API version of the study, for baselines of k sessions. */
export class CohortReferences {
  private constructor(private readonly byKey: ReadonlyMap<string, CohortReference>) {}

  /**
   * One pass over the study's values in time order, keeping each series' first k values; only complete
   * baselines count. Cached until the database changes (the timeline asks for it on every view).
   */
  static async of(q: Queryable, studyId: number, k: number): Promise<CohortReferences> {
    let perDb = cache.get(q);
    if (!perDb) cache.set(q, (perDb = new Map()));
    const key = `${studyId}:${k}`;
    const version = await databaseVersion(q);
    const hit = perDb.get(key);
    if (hit?.version === version) return hit.refs;
    // measure + version → participant → their first values (at most k)
    const firsts = new Map<string, Map<number, number[]>>();
    for await (const page of studyValuesInTimeOrder(q, studyId))
      for (const v of page) {
        const series = `${v.measure_key} ${v.api_version}`;
        let byP = firsts.get(series);
        if (!byP) firsts.set(series, (byP = new Map()));
        const xs = byP.get(v.participant_id);
        if (!xs) byP.set(v.participant_id, [v.value_num]);
        else if (xs.length < k) xs.push(v.value_num);
      }
    const refs = new CohortReferences(
      new Map(
        [...firsts].map(([series, byP]) => [
          series,
          cohortReference([...byP.values()].filter((xs) => xs.length === k)),
        ]),
      ),
    );
    perDb.set(key, { version, refs });
    return refs;
  }

  get(measureKey: string, apiVersion: string): CohortReference {
    return this.byKey.get(`${measureKey} ${apiVersion}`) ?? NO_COHORT;
  }
}
