/**
 * Every recording reaches an end state, and no participant gets two accounts:
 *
 * - `recordings.accepted_at`: when the upload was accepted, as the workstation's clock saw it. The poll
 *   schedule counts from this moment; the service's own `uploaded_at` stays stored as data (it may run
 *   minutes behind or ahead). Existing uploads take the moment their request was sent.
 * - The analysis state `unanswered`: the timeout and the slower re-checks passed without an answer.
 *   It is terminal (no next poll); the researcher can ask for one more check. SQLite cannot change a
 *   CHECK constraint in place, so the analyses table is copied into a new one with the same columns
 *   (whatever earlier migrations added), and its indexes and triggers are created again as they were.
 * - The account intent on participants: `account_requested_at` is written before POST /accounts is
 *   sent; `account_uncertain` (JSON: when, why, what the service said) marks a request whose outcome is
 *   unknown, which is never repeated on its own: the researcher decides.
 */
import type Database from 'better-sqlite3';
import type { Migration } from '../migrate';

const OLD_STATES = `'awaiting_upload', 'processing', 'completed', 'error', 'not_requested', 'timed_out'`;
const NEW_STATES = `'awaiting_upload', 'processing', 'completed', 'error', 'not_requested', 'timed_out', 'unanswered'`;

const allowUnanswered = (db: Database.Database): void => {
  const table = db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'analyses'`)
    .get() as {
    sql: string;
  };
  if (!table.sql.includes(OLD_STATES)) throw new Error('0090: the analyses table is not as expected');
  const dependents = db
    .prepare(
      `SELECT sql FROM sqlite_master WHERE tbl_name = 'analyses' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name`,
    )
    .all() as { sql: string }[];
  db.exec(`
    CREATE TEMP TABLE analyses_copy AS SELECT * FROM analyses;
    DROP TABLE analyses;
    ${table.sql.replace(OLD_STATES, NEW_STATES)};
    INSERT INTO analyses SELECT * FROM temp.analyses_copy;
    DROP TABLE temp.analyses_copy;
  `);
  for (const d of dependents) db.exec(d.sql);
};

export const m0090: Migration = {
  version: 90,
  name: '0090-end-states-and-account-intents',
  up(db) {
    allowUnanswered(db);
    db.exec(`
      ALTER TABLE recordings ADD COLUMN accepted_at TEXT;          -- workstation clock, when the upload was accepted
      UPDATE recordings SET accepted_at = coalesce(upload_intent_at, uploaded_at) WHERE uploaded_at IS NOT NULL;

      ALTER TABLE participants ADD COLUMN account_requested_at TEXT; -- written before POST /accounts is sent
      ALTER TABLE participants ADD COLUMN account_uncertain TEXT;    -- JSON: the outcome is unknown, the researcher decides
    `);
  },
};
