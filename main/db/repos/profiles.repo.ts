/** Service profiles: the address, API version and key reference of each service account the workstation uses. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import { readableSelect } from '../readable-columns';
import type { Queryable } from '../store/types';

export interface ProfileRow {
  readonly id: number;
  readonly name: string;
  readonly base_url: string;
  readonly api_version: ApiVersion;
  readonly key_ref: string | null;
  readonly is_sandbox: number;
}

/** A profile's columns; the key reference is the owner's alone on a team database (read as null by others). */
const PROFILE_COLUMNS = ['id', 'name', 'base_url', 'api_version', 'key_ref', 'is_sandbox', 'created_at'];
const profileSelect = (q: Queryable) => readableSelect(q, 'service_profiles', PROFILE_COLUMNS);

export const profileById = async (q: Queryable, id: number): Promise<ProfileRow | undefined> =>
  q.get<ProfileRow>(`SELECT ${await profileSelect(q)} FROM service_profiles WHERE id = ?`, [id]);

export const allProfiles = async (q: Queryable): Promise<ProfileRow[]> =>
  q.all<ProfileRow>(`SELECT ${await profileSelect(q)} FROM service_profiles ORDER BY id`);

export const profileNameTaken = async (q: Queryable, name: string): Promise<boolean> =>
  (await q.get(`SELECT 1 FROM service_profiles WHERE name = ?`, [name])) !== undefined;

export const insertProfile = async (
  q: Queryable,
  p: { name: string; baseUrl: string; apiVersion: ApiVersion; isSandbox: boolean; createdAt: string },
): Promise<number> =>
  (await q.get<{ id: number }>(
    `INSERT INTO service_profiles (name, base_url, api_version, is_sandbox, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
    [p.name, p.baseUrl, p.apiVersion, p.isSandbox ? 1 : 0, p.createdAt],
  ))!.id;

export const deleteProfile = async (q: Queryable, id: number): Promise<void> => {
  await q.run(`DELETE FROM service_profiles WHERE id = ?`, [id]);
};

export const setProfileKeyRef = async (q: Queryable, id: number, keyRef: string | null): Promise<void> => {
  await q.run(`UPDATE service_profiles SET key_ref = ? WHERE id = ?`, [keyRef, id]);
};

export const setProfileBaseUrl = async (q: Queryable, id: number, baseUrl: string): Promise<void> => {
  await q.run(`UPDATE service_profiles SET base_url = ? WHERE id = ?`, [baseUrl, id]);
};

/**
 * Every key reference in use, by profile: what the logger must keep out of its lines (none for a team
 * member who may not read them).
 */
export const profileKeyRefs = async (q: Queryable): Promise<string[]> =>
  (
    await q.all<{ key_ref: string | null }>(
      `SELECT ${await readableSelect(q, 'service_profiles', ['key_ref'])} FROM service_profiles ORDER BY id`,
    )
  )
    .map((r) => r.key_ref)
    .filter((ref) => ref !== null);

/** How many studies use the profile (archived ones included). */
export const studyCountOfProfile = async (q: Queryable, id: number): Promise<number> =>
  (await q.get<{ n: number }>(`SELECT count(*) AS n FROM studies WHERE profile_id = ?`, [id]))!.n;
