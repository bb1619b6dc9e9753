/**
 * A recording's upload state as a badge. Its own module, not in Badges.tsx: the labels it reads come with
 * the analysis-type vocabulary (and zod), which the first screen's badges must not load.
 */
import { uploadStateOf } from '../lib/labels';
import { Badge } from './Badges';

/** A recording's upload state (a borderline file not chosen for sending reads as held, not refused). */
export const UploadStateBadge = ({ r }: { r: Parameters<typeof uploadStateOf>[0] }) => {
  const s = uploadStateOf(r);
  return <Badge tone={s.tone}>{s.label}</Badge>;
};
