/**
 * The plan of a study's copy is read from the schema itself: every table of a study database is either
 * copied (reached from the study through its own `study_id` or a reference) or named as the
 * workstation's own; every integer `…_id` column is a reference the copy renumbers, or is said not to
 * be one; a table a later migration adds comes along through its references, with no change to the copy.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStudyDb, type Db } from '../../../../main/db/open';
import { copyPlan, NOT_OF_A_STUDY } from '../../../../main/db/move/plan';
import { unexplainedIdColumns } from '../../../../main/db/move/references';
import { sqliteSchema } from '../../../../main/db/store/catalog';
import { sqliteStore } from '../../../../main/db/store/sqlite-store';

let db: Db;
beforeEach(() => {
  db = openStudyDb(':memory:').db;
});
afterEach(() => db.close());
const schema = () => sqliteSchema(sqliteStore(db));

describe("a study's copy plan", () => {
  it('copies every table of the study database but the workstation’s own', async () => {
    const plan = copyPlan(await schema());
    expect([...plan.leftOut].sort()).toEqual(['request_budgets', 'settings', 'usage_history']);
    for (const t of plan.leftOut) expect(NOT_OF_A_STUDY).toContain(t);
    expect(plan.tables.map((t) => t.table)).toEqual(
      expect.arrayContaining(['studies', 'participants', 'recordings', 'audit_log', 'local_measures']),
    );
  });

  it('inserts every table after the tables it references', async () => {
    const plan = copyPlan(await schema());
    const at = (t: string) => plan.tables.findIndex((x) => x.table === t);
    for (const t of plan.tables)
      for (const r of t.references)
        if (r.toTable !== t.table) expect(at(r.toTable), `${t.table}.${r.column}`).toBeLessThan(at(t.table));
  });

  it('knows every integer …_id column as a reference, declared or not', async () => {
    expect(unexplainedIdColumns(await schema())).toEqual([]);
    db.exec('ALTER TABLE recordings ADD COLUMN workstation_id INTEGER');
    expect(unexplainedIdColumns(await schema())).toEqual(['recordings.workstation_id']);
  });

  it('takes along a table a later migration adds, through its reference to the study’s rows', async () => {
    db.exec(`CREATE TABLE recording_notes (
      recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE, author TEXT NOT NULL,
      note TEXT NOT NULL, PRIMARY KEY (recording_id, author))`);
    const plan = copyPlan(await schema());
    const notes = plan.tables.find((t) => t.table === 'recording_notes');
    expect(notes).toMatchObject({ columns: ['recording_id', 'author', 'note'], numbered: false });
    expect(notes!.member).toBe(
      '"recording_notes"."recording_id" IN (SELECT "recordings"."id" FROM "recordings" WHERE "recordings".study_id = ?)',
    );
  });

  it('takes along the workstations that hold the study’s files, before the files', async () => {
    const plan = copyPlan(await schema());
    const at = (t: string) => plan.tables.findIndex((x) => x.table === t);
    expect(at('workstations')).toBeGreaterThan(-1);
    expect(at('workstations')).toBeLessThan(at('recording_files'));
    expect(plan.tables[at('workstations')]!.member).toBe(
      '"workstations"."name" IN (SELECT "recording_files"."workstation" FROM "recording_files" WHERE "recording_files"."recording_id" IN (SELECT "recordings"."id" FROM "recordings" WHERE "recordings".study_id = ?))',
    );
  });
});
