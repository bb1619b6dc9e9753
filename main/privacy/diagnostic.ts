/**
 * Diagnostic mode: while it is on, the log keeps participant codes (to trace one participant's
 * problem with support); API keys stay out of the log whatever the mode. Off by default; switching it
 * on or off is written to the audit log.
 */
import { z } from 'zod';
import type { Db } from '../db/open';
import { appendAudit } from '../db/repos/audit.repo';
import { readSetting, writeSetting } from '../db/repos/settings.repo';
import type { Store } from '../db/store/types';

const KEY = 'privacy_diagnostic';
const StoredDiagnostic = z.object({ on: z.boolean(), since: z.string().nullable() }).partial();

export interface DiagnosticMode {
  readonly on: boolean;
  /** When it was last switched (ISO 8601), or null if never. */
  readonly since: string | null;
}

export const readDiagnostic = (db: Db): DiagnosticMode => {
  const v = readSetting(db, KEY, StoredDiagnostic);
  return { on: v?.on === true, since: typeof v?.since === 'string' ? v.since : null };
};

/** `db` is the store's SQLite connection, for the settings (their repository does not take the store yet). */
export const setDiagnostic = async (
  store: Store,
  db: Db,
  on: boolean,
  at: string,
): Promise<DiagnosticMode> => {
  const was = readDiagnostic(db);
  if (was.on === on) return was;
  const next = { on, since: at };
  await store.transaction(
    async (tx) => {
      writeSetting(db, KEY, next);
      await appendAudit(tx, { at, kind: on ? 'diagnostic_on' : 'diagnostic_off' });
    },
    { repeatable: true },
  );
  return next;
};
