/**
 * A study's settings for change statistics and its cohort reference: one place that the timeline, the
 * summary export and the command line read, so they agree (the rules are shared/change.ts).
 */
import { DEFAULT_BASELINE_SESSIONS } from '../../shared/baseline';
import { cohortReference, NO_COHORT, type CohortReference } from '../../shared/change';
import type { Db } from '../db/open';
import { completeBaselineValues, studyBaselineSessions, studyReliabilities } from '../db/repos/change.repo';

export interface ChangeSettings {
  /** k: the study's setting or the default. */
  readonly baselineSessions: number;
  /** Reliabilities the study set, by measure key. */
  readonly reliabilities: ReadonlyMap<string, number>;
}

export const changeSettings = (db: Db, studyId: number): ChangeSettings => ({
  baselineSessions: studyBaselineSessions(db, studyId) ?? DEFAULT_BASELINE_SESSIONS,
  reliabilities: new Map(studyReliabilities(db, studyId).map((r) => [r.measure_key, r.r])),
});

/** The cohort reference of every measure and API version of the study, for baselines of k sessions. */
export class CohortReferences {
  private constructor(private readonly byKey: ReadonlyMap<string, CohortReference>) {}

  static of(db: Db, studyId: number, k: number): CohortReferences {
    const groups = new Map<string, number[][]>();
    let lastSeries = '',
      lastParticipant = -1,
      current: number[] = [];
    for (const row of completeBaselineValues(db, studyId, k)) {
      const series = `${row.measure_key} ${row.api_version}`;
      if (series !== lastSeries || row.participant_id !== lastParticipant) {
        let g = groups.get(series);
        if (!g) groups.set(series, (g = []));
        g.push((current = []));
        lastSeries = series;
        lastParticipant = row.participant_id;
      }
      current.push(row.value_num);
    }
    return new CohortReferences(new Map([...groups].map(([key, b]) => [key, cohortReference(b)])));
  }

  get(measureKey: string, apiVersion: string): CohortReference {
    return this.byKey.get(`${measureKey} ${apiVersion}`) ?? NO_COHORT;
  }
}
