/**
 * Data recency of one participant (mindLAMP's "last active" badge, against the study's interval): colour
 * and words together — on track, overdue with the sessions missed, or never recorded.
 */
import type { ParticipantRow } from '../../../shared/contract/participants.contract';
import { plural } from '../lib/format';
import { Badge } from './Badges';

export const recencyWords = (r: ParticipantRow['recency']): string =>
  r.status === 'never' ? 'Never recorded'
    : r.status === 'on_track' ? 'On track'
      : `Overdue: ${plural(r.missedSessions, 'session')} missed`;

export const RecencyBadge = ({ recency }: { recency: ParticipantRow['recency'] }) => {
  const tone = recency.status === 'never' ? 'muted' : recency.status === 'on_track' ? 'ok' : recency.missedSessions > 1 ? 'bad' : 'warn';
  const since = recency.daysSinceLast === null ? 'No recording yet.' : `Last recording ${plural(recency.daysSinceLast, 'day')} ago.`;
  return <Badge tone={tone} title={since}>{recencyWords(recency)}</Badge>;
};
