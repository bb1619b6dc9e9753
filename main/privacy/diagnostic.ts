/**
 * Diagnostic mode: while it is on, the log keeps participant codes (to trace one participant's
 * problem with support); API keys stay out of the log whatever the mode. Off by default; switching it
 * on or off is written to the audit log.
 */
import { z } from 'zod';
import { appendAudit } from '../db/repos/audit.repo';
import { readSetting, writeSetting } from '../db/repos/settings.repo';
import type { Queryable, Store } from '../db/store/types';

const KEY = 'privacy_diagnostic';
const StoredDiagnostic = z.object({ on: z.boolean(), since: z.string().nullable() }).partial();

export interface DiagnosticMode {
  readonly on: boolean;
  /** When it was last switched (ISO 8601), or null if never. */
  readonly since: string | null;
}

export const readDiagnostic = async (q: Queryable): Promise<DiagnosticMode> => {
  const v = await readSetting(q, KEY, StoredDiagnostic);
  return { on: v?.on === true, since: typeof v?.since === 'string' ? v.since : null };
};

/** Switches it, with its audit entry, in one transaction. */
export const setDiagnostic = (store: Store, on: boolean, at: string): Promise<DiagnosticMode> =>
  store.transaction(
    async (tx) => {
      const was = await readDiagnostic(tx);
      if (was.on === on) return was;
      const next = { on, since: at };
      await writeSetting(tx, KEY, next);
      await appendAudit(tx, { at, kind: on ? 'diagnostic_on' : 'diagnostic_off' });
      return next;
    },
    { repeatable: true },
  );
