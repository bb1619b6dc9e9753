/**
 * The audit log cannot be rewritten through SQL any more. 0060 refused UPDATE and DELETE,
 * but `INSERT OR REPLACE` with an existing id replaced an entry without firing the DELETE trigger.
 * Now:
 *   - every entry carries `prev_hash` (the hash of the entry before it, '' for the first) and `hash`
 *     (main/db/audit-hash.ts); entries written before this migration are chained here, in id order;
 *   - an INSERT must give a new id above every existing one and the chain's current hash as
 *     `prev_hash`; anything else (a REPLACE of an old id, an id omitted, a forged predecessor) is
 *     refused by a trigger;
 *   - UPDATE and DELETE stay refused (0060's triggers, lifted only while the older entries are chained).
 * What a trigger cannot stop (someone with the file dropping the triggers) the chain reveals:
 * `verifyAuditChain` (main/db/repos/audit.repo.ts) names the first entry that does not fit.
 */
import { auditEntryHash, type ChainedFields } from '../audit-hash';
import type { Migration } from '../migrate';

export const m0070: Migration = {
  version: 70,
  name: '0070-audit-chain',
  up(db) {
    db.exec(`
      ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
      ALTER TABLE audit_log ADD COLUMN hash TEXT;
      DROP TRIGGER audit_log_no_update;
    `);
    const rows = db
      .prepare(`SELECT id, at, kind, profile_id, study_id, subject, detail FROM audit_log ORDER BY id`)
      .all() as ChainedFields[];
    const set = db.prepare(`UPDATE audit_log SET prev_hash = ?, hash = ? WHERE id = ?`);
    let prev = '';
    for (const r of rows) {
      const hash = auditEntryHash(prev, r);
      set.run(prev, hash, r.id);
      prev = hash;
    }
    db.exec(`
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER audit_log_append_only BEFORE INSERT ON audit_log
      WHEN NEW.id IS NULL OR NEW.id <= coalesce((SELECT max(id) FROM audit_log), 0)
        OR NEW.hash IS NULL OR length(NEW.hash) <> 64
        OR NEW.prev_hash IS NOT coalesce((SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1), '')
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: a new entry follows the last one in the chain'); END;
    `);
  },
};
