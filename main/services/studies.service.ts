/** Studies: created under a service profile, listed and found by name or number, viewed and edited from the window. */
import type { StudyView } from '../../shared/contract/studies.contract';
import { err, ok, type Result } from '../../shared/result';
import type { StudySummary } from '../../shared/study';
import { profileById } from '../db/repos/profiles.repo';
import {
  activeStudyIds,
  insertStudy,
  setStudyFields,
  studyIdByNameOrId,
  studyNameTaken,
  studySummary,
  studyViews,
} from '../db/repos/studies.repo';
import { overdueParticipantIds } from '../design/recency';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';

export interface StudiesService {
  createStudy(p: { name: string; profileId: number }): Promise<Result<StudySummary, ServiceProblem>>;
  listStudies(): Promise<StudySummary[]>;
  findStudy(nameOrId: string): Promise<StudySummary | null>;
  /**
   * The window's view of the active studies (or of one, with `studyId`) as of `nowMs`; the profiles in
   * `builtinProfiles` are the built-in sandbox's, whose results are simulated.
   */
  studyViews(nowMs: number, builtinProfiles: readonly number[], studyId?: number): Promise<StudyView[]>;
  /** Renames the study or changes its session interval. */
  setStudyFields(
    studyId: number,
    f: { name?: string | undefined; sessionIntervalDays?: number | undefined },
  ): Promise<'not_found' | 'name_taken' | true>;
}

export const studiesService = (ctx: ServiceContext): StudiesService => {
  const { store } = ctx;
  const summaryOf = async (id: number) => (await studySummary(store, id))!;
  return {
    async createStudy(p) {
      const name = p.name.trim();
      if (!name) return err(problem('The study needs a name.', 'Enter a name.'));
      if (!(await profileById(store, p.profileId)))
        return err(problem('That service profile does not exist.', 'Create a service profile first.'));
      if (await studyNameTaken(store, name))
        return err(problem(`A study named "${name}" already exists.`, 'Choose another name.'));
      const id = await insertStudy(store, { name, profileId: p.profileId, createdAt: ctx.iso() });
      return ok(await summaryOf(id));
    },
    listStudies: async () => {
      const out: StudySummary[] = [];
      for (const id of await activeStudyIds(store)) out.push(await summaryOf(id));
      return out;
    },
    async findStudy(nameOrId) {
      const id = await studyIdByNameOrId(store, nameOrId);
      return id === null ? null : studySummary(store, id);
    },
    async studyViews(nowMs, builtinProfiles, studyId) {
      const views: StudyView[] = [];
      for (const v of await studyViews(store, builtinProfiles, studyId))
        views.push({ ...v, overdueParticipants: (await overdueParticipantIds(store, v.id, nowMs)).length });
      return views;
    },
    setStudyFields: (studyId, f) => setStudyFields(store, studyId, f),
  };
};
