/** An in-memory study database with one service profile and study 1, for import tests. */
import { openStudyDb } from '../../../main/db/open';

export const dbWithStudy = () => {
  const { db } = openStudyDb(':memory:');
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
  ).run();
  db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`).run();
  return db;
};
