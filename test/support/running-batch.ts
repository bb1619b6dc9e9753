/**
 * The smallest study with work to send, written straight into a store: a service profile (1), a study
 * (1), one participant with an account (1, `acc-1`) and a running batch (1) of wellbeing analyses, all
 * made at `at`. The tests add the recordings they need.
 */
import type { Store } from '../../main/db/store/types';

export const seedRunningBatch = async (store: Store, at: string): Promise<void> => {
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'sandbox', 'http://127.0.0.1:1', 'v1.3', ?)`,
    [at],
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Study', 1, ?)`, [at]);
  await store.run(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P-001', 'acc-1', ?)`,
    [at],
  );
  await store.run(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, ?, '["wellbeing"]', 'running')`,
    [at],
  );
};
