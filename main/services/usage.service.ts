/** The service's usage answers: read (and kept as history), the latest, and what each study has used. */
import type { Usage } from '../../shared/api/domain';
import { err, ok, type Result } from '../../shared/result';
import {
  latestUsage,
  recordUsage,
  usageByStudy,
  usageHistory,
  type StudyUsage,
} from '../db/repos/usage.repo';
import type { Engine } from './engine.service';
import { fromApi, type ServiceContext, type ServiceProblem } from './service-context';

export interface UsageService {
  /** Asks the service for the profile's usage; the answer is kept in the usage history. */
  readUsage(profileId: number): Promise<Result<Usage, ServiceProblem>>;
  /** The last usage answer kept for the profile. */
  latestUsage(profileId: number): Promise<{ at: string; usage: Usage } | null>;
  /** The latest answer, the recent history (oldest first) and what each active study of the profile used. */
  usageOverview(profileId: number): Promise<{
    latest: { at: string; usage: Usage } | null;
    history: { at: string; uploadsRemaining: number }[];
    studies: StudyUsage[];
  }>;
}

export const usageService = (ctx: ServiceContext, engine: Engine): UsageService => {
  const { store } = ctx;
  return {
    async readUsage(profileId) {
      const c = await engine.clientFor(profileId);
      if (!c.ok) return c;
      const res = await c.value.getUsage();
      if (!res.ok) return err(fromApi(res.error));
      await recordUsage(store, profileId, ctx.iso(), res.value);
      ctx.emit({ type: 'usage', profileId, usage: res.value });
      return ok(res.value);
    },
    latestUsage: (profileId) => latestUsage(store, profileId),
    async usageOverview(profileId) {
      const history = await usageHistory(store, profileId);
      const studies = await usageByStudy(store, profileId);
      return { latest: await latestUsage(store, profileId), history, studies };
    },
  };
};
