import type { usageContract } from '../../../shared/contract/usage.contract';
import { ok } from '../../../shared/result';
import { latestUsage } from '../../db/repos/usage.repo';
import type { HandlersOf } from '../router';
import { fromProblem, type HostDeps } from './deps';

export const usageHandlers = (d: HostDeps): HandlersOf<typeof usageContract> => {
  const { service } = d;
  return {
    async 'usage.read'({ profileId }) {
      const r = await service.readUsage(profileId);
      return r.ok ? ok(r.value) : fromProblem(r.error);
    },
    'usage.overview': ({ profileId }) => {
      const history = (
        service.db
          .prepare(
            `SELECT at, uploads_remaining FROM usage_history WHERE profile_id = ? ORDER BY id DESC LIMIT 200`,
          )
          .all(profileId) as { at: string; uploads_remaining: number }[]
      )
        .reverse()
        .map((h) => ({ at: h.at, uploadsRemaining: h.uploads_remaining }));
      const studies = service.db
        .prepare(
          `SELECT s.id AS studyId, s.name,
                (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state = 'uploaded') AS uploadsAccepted,
                (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state = 'upload_uncertain') AS uploadsUncertain,
                (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state IN ('queued', 'pending')) AS queued
         FROM studies s WHERE s.profile_id = ? AND s.archived_at IS NULL ORDER BY s.name COLLATE NOCASE`,
        )
        .all(profileId) as {
        studyId: number;
        name: string;
        uploadsAccepted: number;
        uploadsUncertain: number;
        queued: number;
      }[];
      return ok({ latest: latestUsage(service.db, profileId), history, studies });
    },
  };
};
