/** Every export leaves an entry in the audit log: counts and plain words, never a participant code or a path. */
import { afterAll, expect, it } from 'vitest';
import { auditPage } from '../../../main/db/repos/audit.repo';
import { AWKWARD_CODES, seedAwkwardStudy } from './awkward-study';
import { exportStudy, mustExport, openExportStore, tempDir } from './helpers';

const t = tempDir();
afterAll(t.cleanup);

it('records each written export, and nothing for a refused one', async () => {
  const db = await openExportStore(t.dir);
  await seedAwkwardStudy(db);
  const report = await mustExport(
    db,
    { forms: ['wide', 'long'], preset: 'excel', includeLinkFile: true, extras: ['stata'] },
    { outDir: t.dir },
  );
  const refused = await exportStudy(db, { from: '2099-01-01' }, { outDir: t.dir });
  expect(refused.ok).toBe(false);

  const { rows } = await auditPage(db, 0, 10);
  await db.close();
  const exports = rows.filter((r) => r.kind === 'export_written');
  expect(exports).toHaveLength(1);
  expect(exports[0]).toMatchObject({
    studyId: 1,
    detail: {
      recordings: report.counts.recordings,
      participants: report.counts.participants,
      forms: 'long-wide',
      extras: 'stata',
      preset: 'excel',
      link_file: true,
      files: report.files.length,
    },
  });
  const text = JSON.stringify(exports[0]);
  // (codes that are ordinary words such as "NA" or "null" cannot be told apart from JSON itself)
  for (const code of AWKWARD_CODES.filter((c) => c.length > 4))
    expect(text).not.toContain(JSON.stringify(code).slice(1, -1));
  expect(text).not.toContain(t.dir);
});
