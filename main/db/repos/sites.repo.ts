/** A study's sites (migration 190), as the window lists them. */
import type { Queryable } from '../store/types';

export interface SiteRow {
  readonly code: string;
  readonly name: string;
}

export const studySites = async (q: Queryable, studyId: number): Promise<SiteRow[]> =>
  q.all<SiteRow>('SELECT code, name FROM study_sites WHERE study_id = ? ORDER BY code', [studyId]);
