/**
 * The digest of a curation act that its audit entry carries: the first 40 hexadecimal digits of the
 * SHA-256 of the act's fields. The audit log's hash chain then vouches for the act (who, when, reason,
 * before and after) while the reason and the participant codes in it stay out of the audit log.
 */
import { createHash } from 'node:crypto';
import type { NewCurationAct } from '../db/repos/curation.repo';

export const actDigest = (id: number, a: NewCurationAct): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        id,
        a.studyId,
        a.at,
        a.who,
        a.act,
        a.recordingId,
        a.reason,
        a.before,
        a.after,
        a.undoes,
        // Participant acts (migration 0180) only: earlier acts keep the digest they were written with.
        ...(a.participantId !== null ? [a.participantId] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 40);
