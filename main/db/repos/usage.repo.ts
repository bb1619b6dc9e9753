/** The usage history: every usage answer the service gave, so the researcher can see credits over time. */
import type { Usage } from '../../../shared/api/domain';
import { UsageSchema } from '../../../shared/contract/views';
import { UPLOAD_STATES_WAITING } from '../../../shared/states';
import { jsonColumn } from '../json-column';
import { sqlWords } from '../sql-words';
import type { Queryable, Store } from '../store/types';
import { appendEvent } from './event-log.repo';

export const recordUsage = (store: Store, profileId: number, at: string, usage: Usage): Promise<void> =>
  store.transaction(
    async (tx) => {
      await tx.run(
        `INSERT INTO usage_history (profile_id, at, uploads_remaining, detail) VALUES (?, ?, ?, ?)`,
        [profileId, at, usage.uploadsRemaining, JSON.stringify(usage)],
      );
      await appendEvent(
        tx,
        at,
        'usage_read',
        {},
        { profile_id: profileId, uploads_remaining: usage.uploadsRemaining },
      );
    },
    { repeatable: true },
  );

const usageDetail = jsonColumn('usage_history', 'detail', UsageSchema);

export const latestUsage = async (
  q: Queryable,
  profileId: number,
): Promise<{ at: string; usage: Usage } | null> => {
  const r = await q.get<{ at: string; detail: string }>(
    `SELECT at, detail FROM usage_history WHERE profile_id = ? ORDER BY id DESC LIMIT 1`,
    [profileId],
  );
  return r ? { at: r.at, usage: usageDetail.decode(r.detail) } : null;
};

/** The last 200 usage readings of the profile, oldest first. */
export const usageHistory = async (
  q: Queryable,
  profileId: number,
): Promise<{ at: string; uploadsRemaining: number }[]> =>
  (
    await q.all<{ at: string; uploads_remaining: number }>(
      `SELECT at, uploads_remaining FROM usage_history WHERE profile_id = ? ORDER BY id DESC LIMIT 200`,
      [profileId],
    )
  )
    .reverse()
    .map((h) => ({ at: h.at, uploadsRemaining: h.uploads_remaining }));

export interface StudyUsage {
  readonly studyId: number;
  readonly name: string;
  readonly uploadsAccepted: number;
  readonly uploadsUncertain: number;
  readonly queued: number;
}

/**
 * What each active study of the profile has used: uploads accepted, uncertain, and still queued. An
 * upload whose outcome was uncertain and that the researcher later confirmed reached the service
 * ("mark uploaded elsewhere": charged, not sent again) counts as accepted, like one the service accepted.
 */
export const usageByStudy = (q: Queryable, profileId: number): Promise<StudyUsage[]> =>
  q.all<StudyUsage>(
    `SELECT s.id AS "studyId", s.name,
                (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND (r.upload_state = 'uploaded'
                   OR (r.upload_state = 'cancelled' AND ${q.dialect.jsonText('r.upload_error', 'resolution')} = 'mark_uploaded_elsewhere'))
                ) AS "uploadsAccepted",
                (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state = 'upload_uncertain') AS "uploadsUncertain",
                (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state IN ${sqlWords(UPLOAD_STATES_WAITING)}) AS queued
         FROM studies s WHERE s.profile_id = ? AND s.archived_at IS NULL ORDER BY ${q.dialect.nocase('s.name')}`,
    [profileId],
  );
