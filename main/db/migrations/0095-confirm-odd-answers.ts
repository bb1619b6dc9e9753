/**
 * An answer that settles an analysis while carrying odd values (data-quality flags) is asked for once
 * more before it is stored as final (results.repo.ts): a value garbled on the way (a broken proxy, a
 * truncated body) must not become the study's result for good, and a service that really sends that value
 * says it again. `analyses.confirmations` counts the settling-but-odd answers received for a type, so the
 * asking stops after a few and the latest answer is kept, never discarded.
 */
import type { Migration } from '../migrate';

export const m0095: Migration = {
  version: 95,
  name: '0095-confirm-odd-answers',
  up(db) {
    db.exec(`ALTER TABLE analyses ADD COLUMN confirmations INTEGER NOT NULL DEFAULT 0`);
  },
};
