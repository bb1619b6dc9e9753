/**
 * The request budget shared by every workstation of a study database: one token bucket per service
 * profile and kind of budget (every request; uploads), taken by each request in one statement
 * (main/db/repos/request-budget.repo.ts). The poll schedule itself was already kept in the database
 * (`analyses.next_poll_at`, `last_polled_at`); a due poll is claimed by moving `next_poll_at` forward
 * (main/db/repos/polls.repo.ts), which needs no new column.
 */
import type { StoreMigration } from '../../migrate';

export const m0220: StoreMigration = {
  version: 220,
  name: '0220-request-budgets',
  statements: (d) => [
    `CREATE TABLE request_budgets (
      profile_id ${d.integerType} NOT NULL REFERENCES service_profiles(id) ON DELETE CASCADE,
      kind TEXT NOT NULL, tokens ${d.realType} NOT NULL, refilled_at TEXT NOT NULL, paused_until TEXT,
      PRIMARY KEY (profile_id, kind))`,
  ],
};
