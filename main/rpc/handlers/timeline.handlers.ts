import type { timelineContract } from '../../../shared/contract/timeline.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

export const timelineHandlers = (d: HostDeps): HandlersOf<typeof timelineContract> => ({
  'timeline.participant': async ({ participantId, baselineSessions, measures, includeAfterWithdrawal }) => {
    const t = await d.service.timeline(
      participantId,
      baselineSessions,
      measures,
      includeAfterWithdrawal ?? false,
    );
    return t ? ok(t) : notFound('participant');
  },
});
