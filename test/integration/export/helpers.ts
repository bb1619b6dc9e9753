/** Running exports in a temporary folder and reading their files back with an independent parser (papaparse). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { ExportProblem, ExportReport, ExportRequestInput } from '../../../shared/export';
import type { Result } from '../../../shared/result';
import { openStudyDb } from '../../../main/db/open';
import { runExport, type RunExportOptions } from '../../../main/export/run-export';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import type { Queryable, Store } from '../../../main/db/store/types';
import { insertedId } from '../../support/inserted-id';
import { openTestStore, testEngine } from '../../support/test-engine';

export const tempDir = (prefix = 'vs-export-'): { dir: string; cleanup: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
};

export const FIXED_NOW = Date.UTC(2024, 5, 1, 12, 0, 0);

/**
 * A fresh study store on the engine this run tests: on SQLite a study file in `dir` (so an export reads
 * it through its own read-only connection, as in the app), on PGlite a migrated PGlite.
 */
export const openExportStore = async (dir: string, file = 'study.sqlite'): Promise<Store> =>
  testEngine() === 'sqlite' ? sqliteStore(openStudyDb(join(dir, file)).db) : openTestStore();

export const exportStudy = (
  store: Store,
  request: Partial<ExportRequestInput>,
  opts: Partial<RunExportOptions> & { outDir: string },
): Promise<Result<ExportReport, ExportProblem>> =>
  runExport(
    { store },
    { studyId: 1, timeZone: 'Europe/Berlin', ...request },
    { appVersion: '9.9.9-test', now: () => FIXED_NOW, ...opts },
  );

export const mustExport = async (...args: Parameters<typeof exportStudy>): Promise<ExportReport> => {
  const r = await exportStudy(...args);
  if (!r.ok) throw new Error(`export failed: ${r.error.code}: ${r.error.message}`);
  return r.value;
};

export interface ParsedCsv {
  readonly bom: boolean;
  readonly header: string[];
  readonly rows: string[][];
  readonly raw: string;
  /** Rows as objects keyed by header. */
  readonly records: Record<string, string>[];
}

/** Parses a CSV file the way a careful reader would: UTF-8, optional BOM, RFC 4180 quoting, CRLF. */
export const readCsv = (path: string): ParsedCsv => {
  const raw = readFileSync(path, 'utf8');
  const bom = raw.startsWith('\uFEFF');
  const body = (bom ? raw.slice(1) : raw).replace(/\r\n$/, '');
  const parsed = Papa.parse<string[]>(body, {
    header: false,
    newline: '\r\n',
    quoteChar: '"',
    escapeChar: '"',
    delimiter: ',',
  });
  if (parsed.errors.length) throw new Error(`papaparse: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  const [header, ...rows] = parsed.data;
  const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? '<missing>'])));
  return { bom, header: header!, rows, raw, records };
};

/** Undoes the formula neutralisation, as the codebook says: one leading ' is dropped. */
export const unneutralise = (s: string): string => (s.startsWith("'") ? s.slice(1) : s);

/** The number a cell holds, parsed the way R and pandas would. */
export const num = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));

/**
 * An empty store's first study (id 1, on a sandbox profile) with one finished batch, whose id is
 * returned: what the export suites that write their own recordings start from.
 */
export const seedFinishedBatch = async (q: Queryable, studyName: string): Promise<number> => {
  const profile = await insertedId(
    q,
    `INSERT INTO service_profiles (name, base_url, api_version, is_sandbox, created_at) VALUES ('sandbox', 'http://127.0.0.1:1', 'v1.3', 1, '2024-01-01T00:00:00.000Z')`,
    [],
  );
  const study = await insertedId(
    q,
    `INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, '2024-01-01T00:00:00.000Z')`,
    [studyName, profile],
  );
  if (study !== 1) throw new Error(`the study was seeded into a used store (${study})`);
  return insertedId(
    q,
    `INSERT INTO batches (study_id, created_at, analyses, isolate_oldest_speaker, state) VALUES (1, '2024-01-01T00:00:00.000Z', '[]', 0, 'finished')`,
    [],
  );
};
