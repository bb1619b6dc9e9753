/** The usage history: every usage answer the service gave, so the researcher can see credits over time. */
import type { Usage } from '../../../shared/api/domain';
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendEvent } from './event-log.repo';

export const recordUsage = (db: Db, profileId: number, at: string, usage: Usage): void =>
  db
    .transaction(() => {
      stmt(
        db,
        `INSERT INTO usage_history (profile_id, at, uploads_remaining, detail) VALUES (?, ?, ?, ?)`,
      ).run(profileId, at, usage.uploadsRemaining, JSON.stringify(usage));
      appendEvent(
        db,
        at,
        'usage_read',
        {},
        { profile_id: profileId, uploads_remaining: usage.uploadsRemaining },
      );
    })
    .immediate();

export const latestUsage = (db: Db, profileId: number): { at: string; usage: Usage } | null => {
  const r = stmt(
    db,
    `SELECT at, detail FROM usage_history WHERE profile_id = ? ORDER BY id DESC LIMIT 1`,
  ).get(profileId) as { at: string; detail: string } | undefined;
  return r ? { at: r.at, usage: JSON.parse(r.detail) as Usage } : null;
};
