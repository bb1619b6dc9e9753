import type { timelineContract } from '../../../shared/contract/timeline.contract';
import { ok } from '../../../shared/result';
import { participantTimeline } from '../../services/timeline';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

export const timelineHandlers = (d: HostDeps): HandlersOf<typeof timelineContract> => ({
  'timeline.participant': ({ participantId, baselineSessions }) => {
    const t = participantTimeline(d.service.db, participantId, baselineSessions);
    return t ? ok(t) : notFound('participant');
  },
});
