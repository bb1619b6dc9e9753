/**
 * Data recency of one participant (mindLAMP's "last active" badge, against the study's visit schedule):
 * colour and words together — on track, overdue with the visits missed, never recorded, or, without a
 * schedule, only how long ago the last recording was.
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
        : r.status === 'no_schedule'
          ? `Last recording ${plural(r.daysSinceLast ?? 0, 'day')} ago`
          : short
            ? `Overdue, ${fmtInt(r.missedVisits)} missed`
            : `Overdue: ${plural(r.missedVisits, 'visit')} of the schedule missed`;

/** `short` for table cells; the full sentence is in the title either way. */
export const RecencyBadge = ({
  recency,
  short = false,
}: {
  recency: ParticipantRow['recency'];
  short?: boolean;
}) => {
  const tone =
    recency.status === 'never' || recency.status === 'not_followed' || recency.status === 'no_schedule'
      ? 'muted'
      : recency.status === 'on_track'
        ? 'ok'
        : recency.missedVisits > 1
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
