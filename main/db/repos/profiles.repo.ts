/** Service profiles: the address, API version and key reference of each service account the workstation uses. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import type { Db } from '../open';
import { stmt } from '../statements';

export interface ProfileRow {
  readonly id: number;
  readonly name: string;
  readonly base_url: string;
  readonly api_version: ApiVersion;
  readonly key_ref: string | null;
  readonly is_sandbox: number;
}

export const profileById = (db: Db, id: number): ProfileRow | undefined =>
  stmt(db, `SELECT * FROM service_profiles WHERE id = ?`).get(id) as ProfileRow | undefined;

export const allProfiles = (db: Db): ProfileRow[] =>
  stmt(db, `SELECT * FROM service_profiles ORDER BY id`).all() as ProfileRow[];

export const profileNameTaken = (db: Db, name: string): boolean =>
  stmt(db, `SELECT 1 FROM service_profiles WHERE name = ?`).get(name) !== undefined;

export const insertProfile = (
  db: Db,
  p: { name: string; baseUrl: string; apiVersion: ApiVersion; isSandbox: boolean; createdAt: string },
): number =>
  Number(
    stmt(
      db,
      `INSERT INTO service_profiles (name, base_url, api_version, is_sandbox, created_at) VALUES (?, ?, ?, ?, ?)`,
    ).run(p.name, p.baseUrl, p.apiVersion, p.isSandbox ? 1 : 0, p.createdAt).lastInsertRowid,
  );

export const deleteProfile = (db: Db, id: number): void => {
  stmt(db, `DELETE FROM service_profiles WHERE id = ?`).run(id);
};

export const setProfileKeyRef = (db: Db, id: number, keyRef: string | null): void => {
  stmt(db, `UPDATE service_profiles SET key_ref = ? WHERE id = ?`).run(keyRef, id);
};

export const setProfileBaseUrl = (db: Db, id: number, baseUrl: string): void => {
  stmt(db, `UPDATE service_profiles SET base_url = ? WHERE id = ?`).run(baseUrl, id);
};

/** Every key reference in use, by profile: what the logger must keep out of its lines. */
export const profileKeyRefs = (db: Db): string[] =>
  (
    stmt(db, `SELECT key_ref FROM service_profiles WHERE key_ref IS NOT NULL ORDER BY id`).all() as {
      key_ref: string;
    }[]
  ).map((r) => r.key_ref);

/** How many studies use the profile (archived ones included). */
export const studyCountOfProfile = (db: Db, id: number): number =>
  (stmt(db, `SELECT count(*) AS n FROM studies WHERE profile_id = ?`).get(id) as { n: number }).n;
