/**
 * Study sites: a study has one or more sites (a code and a name), and each participant is at one of
 * them. Every study gets its default site and every existing participant is put there. An audit entry
 * about one site's participant may name its site (none: a study-wide entry). On SQLite a
 * study simply keeps its one site; on a team database (PostgreSQL) the sites are what row-level
 * security grants (main/db/team/).
 */
import { DEFAULT_SITE } from '../../../../shared/team';
import type { StoreMigration } from '../../migrate';

export const m0190: StoreMigration = {
  version: 190,
  name: '0190-study-sites',
  statements: (d) => [
    `CREATE TABLE study_sites (
      study_id ${d.integerType} NOT NULL REFERENCES studies(id) ON DELETE CASCADE, code TEXT NOT NULL,
      name TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (study_id, code))`,
    `INSERT INTO study_sites (study_id, code, name, created_at)
      SELECT id, '${DEFAULT_SITE.code}', '${DEFAULT_SITE.name}', created_at FROM studies`,
    `ALTER TABLE participants ADD COLUMN site_code TEXT NOT NULL DEFAULT '${DEFAULT_SITE.code}'`,
    'CREATE INDEX participants_by_site ON participants (study_id, site_code)',
    'ALTER TABLE audit_log ADD COLUMN site_code TEXT',
  ],
};
