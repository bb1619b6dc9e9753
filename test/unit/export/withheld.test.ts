/**
 * A team study member's export leaves out each column read from a database column the login may not
 * read (main/export/withheld.ts), in every file that has it, and the codebook says which and why; a
 * login that may read everything (SQLite, a team study's owner) loses nothing.
 */
import { describe, expect, it } from 'vitest';
import { codebookMarkdown } from '../../../main/export/codebook';
import { exportFiles, tableDefs } from '../../../main/export/schema';
import { refusedLinkFile, withheldColumns, withoutWithheld } from '../../../main/export/withheld';
import { POSTGRES, SQLITE } from '../../../main/db/store/dialect';
import type { Queryable } from '../../../main/db/store/types';
import { ExportRequestSchema } from '../../../shared/export';

/** A login that reads every column but those named (as `table.column`). */
const loginWithout = (dialect: Queryable['dialect'], ...hidden: string[]): Queryable =>
  ({
    dialect,
    all: async (sql: string) => {
      const table = /'(\w+)'/.exec(sql)![1]!;
      const columns = {
        recordings: ['id', 'source_path', 'upload_path'],
        participants: ['id', 'account_id'],
      };
      return ((columns as Record<string, string[]>)[table] ?? [])
        .filter((c) => !hidden.includes(`${table}.${c}`))
        .map((name) => ({ name }));
    },
  }) as unknown as Queryable;

const request = ExportRequestSchema.parse({ studyId: 1, timeZone: 'UTC', includeLinkFile: true });
const files = exportFiles(request);

describe("a team member's export", () => {
  it('leaves file_name out of every file that has it when the login may not read the source path', async () => {
    const withheld = await withheldColumns(loginWithout(POSTGRES, 'recordings.source_path'), files);
    expect(withheld.map((w) => `${w.file}:${w.column}:${w.source}`)).toEqual([
      'recordings.csv:file_name:recordings.source_path',
      'measures_wide.csv:file_name:recordings.source_path',
      'visits.csv:file_name:recordings.source_path',
    ]);
    const kept = tableDefs(withoutWithheld(files, withheld));
    for (const t of kept)
      expect(
        t.columns.map((c) => c.name),
        t.name,
      ).not.toContain('file_name');
    expect(kept.map((t) => t.name)).toEqual(tableDefs(files).map((t) => t.name));
  });

  it('leaves nothing out for a login that reads every column', async () => {
    expect(await withheldColumns(loginWithout(SQLITE), files)).toEqual([]);
    expect(withoutWithheld(files, [])).toBe(files);
  });

  it('refuses the link file to a login that may not read the account ids, and only then', async () => {
    const refused = await refusedLinkFile(loginWithout(POSTGRES, 'participants.account_id'), request);
    expect(refused.ok ? null : refused.error.code).toBe('invalid_request');
    expect((await refusedLinkFile(loginWithout(POSTGRES), request)).ok).toBe(true);
    const without = { ...request, includeLinkFile: false };
    expect((await refusedLinkFile(loginWithout(POSTGRES, 'participants.account_id'), without)).ok).toBe(true);
  });

  it('lists the columns left out, with where they are read from and why, in the codebook', async () => {
    const withheld = await withheldColumns(loginWithout(POSTGRES, 'recordings.source_path'), files);
    const codebook = codebookMarkdown({
      studyName: 'S',
      studyId: 1,
      request,
      appVersion: '9.9.9-test',
      dbSchemaVersion: 240,
      exportedAt: '2026-01-01T00:00:00.000Z',
      tables: tableDefs(withoutWithheld(files, withheld)),
      withheld,
      written: [],
      recordings: 0,
      participants: 0,
      simulatedRecordings: 0,
      apiVersions: [],
    });
    expect(codebook).toContain('## Columns left out');
    expect(codebook).toContain(
      "| `visits.csv` | `file_name` | `recordings.source_path` | the original audio file's name can name a person",
    );
    const none = codebookMarkdown({
      ...{
        studyName: 'S',
        studyId: 1,
        request,
        appVersion: 'x',
        dbSchemaVersion: 240,
        exportedAt: 'x',
        tables: tableDefs(files),
        withheld: [],
        written: [],
        recordings: 0,
        participants: 0,
        simulatedRecordings: 0,
        apiVersions: [],
      },
    });
    expect(none).not.toContain('## Columns left out');
  });
});
