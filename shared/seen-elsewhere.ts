/**
 * Where the same audio was seen before upload, in the researcher's words: one sentence for
 * the import preview, the command line and the recording page alike.
 */
import type { SeenElsewhere } from './study';

const one = (s: SeenElsewhere): string => {
  const who = `participant ${s.participantCode}${s.session ? ` (session ${s.session})` : ''}`;
  const as = s.recordingId === null ? 'another file of this import' : `recording ${s.recordingId}`;
  return `${who} ${s.sameStudy ? 'in this study' : `in study "${s.study}"`}, as ${as}`;
};

export const seenElsewhereText = (seen: readonly SeenElsewhere[]): string =>
  seen.length === 0
    ? ''
    : `The same audio is already under ${seen.map(one).join('; and under ')}. Held: send it anyway only if it really belongs here too; otherwise fix the file's participant.`;
