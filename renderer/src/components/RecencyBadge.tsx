/**
 * Data recency of one participant (mindLAMP's "last active" badge, against the study's interval): colour
 * and words together — on track, overdue with the sessions missed, or never recorded.
 */
import type { ParticipantRow } from '../../../shared/contract/participants.contract';
import { fmtInt, plural } from '../lib/format';
import { Badge } from './Badges';

export const recencyWords = (r: ParticipantRow['recency'], short = false): string =>
  r.status === 'not_followed'
    ? 'Not followed now'
    : r.status === 'never'
      ? 'No usable recording yet'
      : r.status === 'on_track'
        ? 'On track'
        : short
          ? `Overdue, ${fmtInt(r.missedSessions)} missed`
          : `Overdue: ${plural(r.missedSessions, 'session')} missed`;

/** `short` for table cells; the full sentence is in the title either way. */
export const RecencyBadge = ({
  recency,
  short = false,
}: {
  recency: ParticipantRow['recency'];
  short?: boolean;
}) => {
  const tone =
    recency.status === 'never' || recency.status === 'not_followed'
      ? 'muted'
      : recency.status === 'on_track'
        ? 'ok'
        : recency.missedSessions > 1
          ? 'bad'
          : 'warn';
  const since =
    recency.daysSinceLast === null
      ? 'No usable recording yet.'
      : `Last usable recording ${plural(recency.daysSinceLast, 'day')} ago.`;
  return (
    <Badge tone={tone} title={`${recencyWords(recency)}. ${since}`}>
      {recencyWords(recency, short)}
    </Badge>
  );
};
