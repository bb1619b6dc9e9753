/**
 * Moving a single-user study into a team database and back, with PGlite standing in for the team
 * database (no roles; the copy is the same SQL): the study of the schema-180 fixture is imported with
 * every row, exported again to a new SQLite study file, and that file's export is the original's, byte
 * for byte. A second study whose numbers are taken in the target gets new ones, every reference with
 * them; a study whose name is taken is refused with nothing written.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../../main/db/repos/audit.repo';
import { openSqliteStore } from '../../../../main/db/store/sqlite-store';
import type { Store } from '../../../../main/db/store/types';
import { exportStudy, importStudy, type StudyMove } from '../../../../main/services/team-move';
import { lentPglite, PGLITE_START_TIMEOUT } from '../../../support/pglite';
import { exportStudy180From, STUDY_180_DB, STUDY_180_NAME } from '../../../support/study-180';

const dir = mkdtempSync(join(tmpdir(), 'vs-move-study-'));
const home = join(dir, 'home');
let team: Store;

beforeAll(async () => {
  mkdirSync(home);
  copyFileSync(STUDY_180_DB, join(home, 'voicescope.sqlite'));
  team = await lentPglite();
}, PGLITE_START_TIMEOUT);
afterAll(async () => {
  await team.close();
  rmSync(dir, { recursive: true, force: true });
});

const moved = (r: Awaited<ReturnType<typeof importStudy>>): StudyMove => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

/** The fixture study's export from the store, in a folder of its own; its files by name. */
const exportOf = async (store: Store, name: string): Promise<Map<string, Buffer>> => {
  const out = join(dir, name);
  mkdirSync(out);
  await exportStudy180From(store, out);
  const files = readdirSync(join(out, 'export')).sort();
  return new Map(files.map((f) => [f, readFileSync(join(out, 'export', f))]));
};

const withFile = async <T>(file: string, fn: (s: Store) => Promise<T>): Promise<T> => {
  const { store } = openSqliteStore(file);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
};

describe('a single-user study moved into a team database and back', () => {
  let before: Map<string, Buffer>;
  let imported: StudyMove;

  beforeAll(async () => {
    const copy = join(dir, 'before.sqlite');
    copyFileSync(STUDY_180_DB, copy);
    before = await withFile(copy, (s) => exportOf(s, 'before'));
    imported = moved(await importStudy(team, home, STUDY_180_NAME));
  }, 120_000);

  it('copies every table of the study, counted the same on both sides, with its numbers', () => {
    expect(imported.complete).toBe(true);
    expect(imported.renumbered).toEqual({});
    const counts = Object.fromEntries(imported.counts.map((c) => [c.table, c]));
    expect(counts['recordings']).toEqual({ table: 'recordings', before: 22, after: 22 });
    for (const t of [
      'analyses',
      'measure_values',
      'curation_acts',
      'audit_log',
      'event_log',
      'local_measures',
    ])
      expect(counts[t]?.after, t).toBeGreaterThan(0);
    for (const c of imported.counts) expect(c.after, c.table).toBe(c.before);
    expect(imported.leftOut).toEqual(expect.arrayContaining(['settings', 'usage_history']));
  });

  it("leaves the researcher's own file as it was (read through a copy, not upgraded)", () => {
    expect(readFileSync(join(home, 'voicescope.sqlite')).equals(readFileSync(STUDY_180_DB))).toBe(true);
  });

  it("appends the study's audit entries to the team database's chain, which verifies", async () => {
    expect(await verifyAuditChain(team)).toEqual({ ok: true, entries: imported.auditEntries });
  });

  it('exports the same files from the team database and from the study file written back', async () => {
    const fromTeam = await exportOf(team, 'team');
    const back = join(dir, 'back.sqlite');
    const exported = moved(await exportStudy(team, STUDY_180_NAME, back));
    expect(exported.complete).toBe(true);
    const after = await withFile(back, (s) => exportOf(s, 'after'));
    expect([...fromTeam.keys()]).toEqual([...before.keys()]);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [name, bytes] of before) {
      expect(fromTeam.get(name)!.equals(bytes), `team ${name}`).toBe(true);
      expect(after.get(name)!.equals(bytes), `after ${name}`).toBe(true);
    }
  });

  it('refuses a study whose name the team database already has, writing nothing', async () => {
    const studies = await team.get<{ n: number }>('SELECT count(*) AS n FROM studies');
    const r = await importStudy(team, home, STUDY_180_NAME);
    expect(r.ok ? null : r.error).toEqual({
      code: 'TAKEN',
      message: `There is already a study named "${STUDY_180_NAME}" there: nothing was copied. Rename one of the two studies first.`,
    });
    expect(await team.get('SELECT count(*) AS n FROM studies')).toEqual(studies);
  });

  it('names a source that is not there or not a study database', async () => {
    expect(await importStudy(team, join(dir, 'nowhere'), STUDY_180_NAME)).toEqual({
      ok: false,
      error: {
        code: 'NOT_FOUND',
        message: `There is no Voicescope study database at ${join(dir, 'nowhere')}.`,
      },
    });
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database\n'.repeat(100));
    expect(await importStudy(team, text, STUDY_180_NAME)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await importStudy(team, home, 'No such study')).toEqual({
      ok: false,
      error: {
        code: 'NOT_FOUND',
        message: `${join(home, 'voicescope.sqlite')} has no study named "No such study".`,
      },
    });
  });

  it('refuses to overwrite a file on export, and names a study that is not there', async () => {
    const taken = join(dir, 'taken.sqlite');
    copyFileSync(STUDY_180_DB, taken);
    expect(await exportStudy(team, STUDY_180_NAME, taken)).toMatchObject({
      ok: false,
      error: { code: 'TAKEN' },
    });
    expect(await exportStudy(team, 'No such study', join(dir, 'none.sqlite'))).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('numbers a second study anew where its numbers are taken, every reference with them', async () => {
    // The same study again under another name, its service ids made its own (they are unique).
    const second = join(dir, 'second.sqlite');
    copyFileSync(STUDY_180_DB, second);
    await withFile(second, async (s) => {
      await s.run(`UPDATE studies SET name = 'Second study'`);
      await s.run(`UPDATE recordings SET recording_id = recording_id || '-2' WHERE recording_id IS NOT NULL`);
    });
    const last = Number((await team.get<{ n: number }>('SELECT max(id) AS n FROM audit_log'))!.n);
    const chain = await verifyAuditChain(team);
    const r = moved(await importStudy(team, second, 'Second study'));
    expect(r.complete).toBe(true);
    // The study's first audit entry is 2 (the first is the profile's key): it becomes the one after the last.
    expect(r.renumbered).toEqual(
      expect.objectContaining({ studies: 1, participants: 7, recordings: 22, audit_log: last - 1 }),
    );
    expect(r.renumbered).not.toHaveProperty('service_profiles');
    expect(r.profilesMatched).toEqual(['sandbox']);
    const copied = r.counts.find((c) => c.table === 'audit_log')!.after;
    expect(await verifyAuditChain(team)).toEqual({ ok: true, entries: chain.entries + copied });
    const refs = await team.get<{ p: number; r: number; c: number; a: number }>(
      `SELECT
        (SELECT count(*) FROM participants p WHERE p.study_id = ? AND p.merged_into IS NOT NULL
          AND p.merged_into IN (SELECT id FROM participants WHERE study_id = ?)) AS p,
        (SELECT count(*) FROM recordings r JOIN participants p ON p.id = r.participant_id
          WHERE r.study_id = ? AND p.study_id = ?) AS r,
        (SELECT count(*) FROM curation_acts c JOIN audit_log a ON a.id = c.audit_id
          WHERE c.study_id = ? AND a.study_id = ?) AS c,
        (SELECT count(*) FROM curation_acts c JOIN curation_acts u ON u.id = c.undoes
          WHERE c.study_id = ? AND u.study_id = ?) AS a`,
      [r.studyId, r.studyId, r.studyId, r.studyId, r.studyId, r.studyId, r.studyId, r.studyId],
    );
    expect(refs).toEqual({ p: 1, r: 22, c: 6, a: 1 });

    // The numbers an undo acts on, inside the acts' JSON and the provenance notes, moved with the rows.
    const ids = async (table: string) =>
      new Set(
        (await team.all<{ id: number }>(`SELECT id FROM ${table} WHERE study_id = ?`, [r.studyId])).map((x) =>
          Number(x.id),
        ),
      );
    const [participants, recordings, acts] = [
      await ids('participants'),
      await ids('recordings'),
      await ids('curation_acts'),
    ];
    const jsonOf = async (act: string) =>
      (
        await team.all<{ before: string; after: string }>(
          'SELECT before, after FROM curation_acts WHERE study_id = ? AND act = ?',
          [r.studyId, act],
        )
      ).map((a) => ({ before: JSON.parse(a.before) as Json, after: JSON.parse(a.after) as Json }));
    type Json = Record<string, any>;
    const [reassign] = await jsonOf('reassign');
    expect(participants.has(reassign!.before['participantId'])).toBe(true);
    expect(participants.has(reassign!.after['participantId'])).toBe(true);
    expect(acts.has(reassign!.after['provenance'][0].act)).toBe(true);
    const [merge] = await jsonOf('merge');
    for (const side of ['from', 'into']) expect(participants.has(merge!.after[side].id), side).toBe(true);
    expect(participants.has(merge!.after['from'].mergedInto)).toBe(true);
    for (const m of merge!.after['recordings']) {
      expect(recordings.has(m.id)).toBe(true);
      expect(acts.has(m.provenance[0].act)).toBe(true);
    }
    const notes = await team.all<{ provenance: string }>(
      `SELECT provenance FROM recordings WHERE study_id = ? AND provenance IS NOT NULL AND provenance <> '[]'`,
      [r.studyId],
    );
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes)
      for (const note of JSON.parse(n.provenance) as { act: number }[]) expect(acts.has(note.act)).toBe(true);
  });

  it('takes along the workstation that holds the study’s files, once however many studies name it', async () => {
    const holdFiles = async (file: string, name: string) =>
      withFile(file, async (s) => {
        await s.run(`UPDATE studies SET name = ?`, [name]);
        await s.run(`UPDATE recordings SET recording_id = recording_id || ? WHERE recording_id IS NOT NULL`, [
          `-${name}`,
        ]);
        await s.run(
          `INSERT INTO workstations (name, login, first_seen_at, last_seen_at) VALUES ('lab-pc-1', NULL, 'x', 'x')`,
        );
        await s.run(
          `INSERT INTO recording_files (recording_id, workstation, path, sha256, checked_at)
           SELECT id, 'lab-pc-1', source_path, content_sha256, 'x' FROM recordings ORDER BY id LIMIT 2`,
        );
      });
    const files = async (studyId: number) =>
      team.all<{ workstation: string; path: string }>(
        `SELECT f.workstation, f.path FROM recording_files f JOIN recordings r ON r.id = f.recording_id
         WHERE r.study_id = ? ORDER BY f.path`,
        [studyId],
      );
    for (const name of ['Third study', 'Fourth study']) {
      const file = join(dir, `${name}.sqlite`);
      copyFileSync(STUDY_180_DB, file);
      await holdFiles(file, name);
      const r = moved(await importStudy(team, file, name));
      expect(r.complete).toBe(true);
      expect((await files(r.studyId)).map((f) => f.workstation)).toEqual(['lab-pc-1', 'lab-pc-1']);
    }
    expect(await team.all(`SELECT name FROM workstations WHERE name = 'lab-pc-1'`)).toHaveLength(1);
  });

  it('writes nothing and says which table lost rows when a count differs', async () => {
    // A target that silently drops the pitch tracks (as a broken trigger or a policy might): the team
    // database above, with the trigger for this test only, given the study again under a name of its own.
    const file = join(dir, 'dropped.sqlite');
    copyFileSync(STUDY_180_DB, file);
    await withFile(file, async (s) => {
      await s.run(`UPDATE studies SET name = 'Dropped study'`);
      await s.run(`UPDATE recordings SET recording_id = recording_id || '-d' WHERE recording_id IS NOT NULL`);
    });
    const rows = () =>
      team.get(
        'SELECT (SELECT count(*) FROM studies) AS s, (SELECT count(*) FROM recordings) AS r, (SELECT count(*) FROM audit_log) AS a',
      );
    const before = await rows();
    await team.run(
      `CREATE FUNCTION drop_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
    );
    await team.run(
      'CREATE TRIGGER drop_tracks BEFORE INSERT ON local_pitch_tracks FOR EACH ROW EXECUTE FUNCTION drop_row()',
    );
    try {
      const r = moved(await importStudy(team, file, 'Dropped study'));
      expect(r.complete).toBe(false);
      const differ = r.counts.filter((c) => c.before !== c.after);
      expect(differ.map((c) => [c.table, c.after])).toEqual([['local_pitch_tracks', 0]]);
      expect(differ[0]!.before).toBeGreaterThan(0);
      expect(await rows()).toEqual(before);
      expect(await team.get(`SELECT count(*) AS n FROM studies WHERE name = 'Dropped study'`)).toEqual({
        n: 0,
      });
    } finally {
      await team.run('DROP TRIGGER drop_tracks ON local_pitch_tracks');
      await team.run('DROP FUNCTION drop_row()');
    }
  });
});
