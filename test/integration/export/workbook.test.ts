/**
 * study.xlsx, read back with pandas' read_excel (openpyxl): a sheet per CSV with the CSV's rows, each
 * cell typed (numbers, booleans, date-times) and equal to the CSV's value, text exactly as it was before
 * the formula neutralisation; a codebook sheet with every column of every sheet; a settings sheet that
 * opens with the simulated-values warning; and a table longer than a sheet continued on the next.
 * pandas or openpyxl missing is skipped with a loud message.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../../main/db/store/types';
import { AWKWARD_CODES, seedAwkwardStudy } from './awkward-study';
import { mustExport, openExportStore, readCsv, tempDir, unneutralise } from './helpers';
import { describeWithTool, hasTool } from '../../support/reference-tools';

const PYTHON = '/usr/bin/python3';
const WITH_OPENPYXL = ['pandas', 'openpyxl'] as const;

// Every sheet as rows of JSON cells: dates as {"t": ISO with milliseconds}, the rest as pandas gives them.
const READ = `
import json, sys, warnings, pandas as pd\nwarnings.simplefilter('ignore')
sheets = pd.read_excel(sys.argv[1], sheet_name=None, keep_default_na=False, na_values=[])
def cell(v):
    if v is pd.NaT or (isinstance(v, float) and v != v): return ""
    if isinstance(v, pd.Timestamp): return {"t": v.round("ms").isoformat(timespec="milliseconds")}
    if hasattr(v, "item"): return v.item()
    return v
print(json.dumps({k: [list(df.columns)] + [[cell(v) for v in row] for row in df.itertuples(index=False)] for k, df in sheets.items()}))
`;
type Cell = string | number | boolean | { t: string };

const tmp = tempDir();
const dir = join(tmp.dir, 'xlsx');
let sheets: Record<string, Cell[][]>;

const readWorkbook = (file: string): Record<string, Cell[][]> => {
  const r = spawnSync(PYTHON, [join(tmp.dir, 'read.py'), file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Record<string, Cell[][]>;
};

let store: Store;
beforeAll(async () => {
  store = await openExportStore(tmp.dir);
  await seedAwkwardStudy(store);
  await mustExport(
    store,
    { includeLinkFile: true, extras: ['xlsx'] },
    { outDir: tmp.dir, folderName: 'xlsx' },
  );
  writeFileSync(join(tmp.dir, 'read.py'), READ);
  if (hasTool('pandas') && hasTool('openpyxl')) sheets = readWorkbook(join(dir, 'study.xlsx'));
});
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

interface Field {
  name: string;
  type: string;
  format: string;
}
const fieldsOf = (file: string): Field[] => {
  const pkg = JSON.parse(readFileSync(join(dir, 'datapackage.json'), 'utf8')) as {
    resources: { path: string; schema?: { fields: Field[] } }[];
  };
  return pkg.resources.find((r) => r.path === file)!.schema!.fields;
};

/** What the workbook's cell must be, from the CSV's text. */
const expected = (f: Field, csv: string): Cell => {
  if (csv === '') return '';
  switch (f.type) {
    case 'integer':
    case 'number':
      return Number(csv);
    case 'boolean':
      return csv === 'true';
    case 'datetime':
      return {
        t: (f.format === 'default' ? new Date(csv) : new Date(`${csv.replace(' ', 'T')}Z`))
          .toISOString()
          .slice(0, 23),
      };
    default:
      return unneutralise(csv);
  }
};

describeWithTool(WITH_OPENPYXL, 'study.xlsx read back with pandas', () => {
  const TABLES = [
    'measures_long',
    'measures_wide',
    'participant_summary',
    'visits',
    'completeness',
    'recordings',
    'data_quality',
    'answers_as_received',
    'participant_accounts',
  ];

  it('has a sheet per CSV, then the codebook and settings sheets', () => {
    expect(Object.keys(sheets)).toEqual([...TABLES, 'codebook', 'settings']);
  });

  it('holds every row of every CSV, each cell typed and equal to the CSV', () => {
    for (const t of TABLES) {
      const csv = readCsv(join(dir, `${t}.csv`));
      const [header, ...rows] = sheets[t]!;
      expect(header, t).toEqual(csv.header);
      expect(rows.length, t).toBe(csv.rows.length);
      const fields = fieldsOf(`${t}.csv`);
      csv.records.forEach((rec, i) =>
        fields.forEach((f, j) =>
          expect(rows[i]![j], `${t} row ${i + 1} ${f.name}`).toEqual(expected(f, rec[f.name]!)),
        ),
      );
    }
  });

  it('gives text exactly as the researcher typed it: no leading quote, NA stays text', () => {
    const codes = new Set(sheets['recordings']!.slice(1).map((r) => r[1]));
    for (const c of codes) expect(AWKWARD_CODES).toContain(c);
    for (const c of [
      'NA',
      'null',
      '=HYPERLINK("http://x","click")',
      '-5',
      "'apostrophe",
      'two\nlines',
      ' padded ',
    ])
      expect(codes).toContain(c);
  });

  it('describes every column of every sheet on the codebook sheet, and opens the settings with the simulated warning', () => {
    const [head, ...rows] = sheets['codebook']!;
    expect(head).toEqual([
      'sheet',
      'column',
      'title',
      'type',
      'unit',
      'allowed_values',
      'never_empty',
      'meaning',
    ]);
    for (const t of TABLES)
      expect(
        rows.filter((r) => r[0] === t).map((r) => r[1]),
        t,
      ).toEqual(readCsv(join(dir, `${t}.csv`)).header);
    const settings = sheets['settings']!;
    expect(settings[1]![0]).toBe('Simulated values');
    expect(String(settings[1]![1])).toMatch(/not measurements/);
    expect(settings.map((r) => r[0])).toContain('Files for statistics packages');
  });

  it('continues a table longer than a sheet on the next sheet', async () => {
    await mustExport(
      store,
      { forms: ['long'], extras: ['xlsx'] },
      { outDir: tmp.dir, folderName: 'split', sheetRows: 1001 },
    );
    const rows = readCsv(join(tmp.dir, 'split', 'measures_long.csv')).rows.length;
    expect(rows).toBeGreaterThan(1000);
    const split = readWorkbook(join(tmp.dir, 'split', 'study.xlsx'));
    expect(Object.keys(split).slice(0, 2)).toEqual(['measures_long', 'measures_long (2)']);
    expect(Object.keys(split).slice(-2)).toEqual(['codebook', 'settings']);
    expect(split['measures_long']!.length - 1).toBe(1000);
    expect(split['measures_long (2)']!.length - 1).toBe(rows - 1000);
    expect(split['measures_long (2)']![0]).toEqual(split['measures_long']![0]);
    expect([...split['measures_long']!.slice(1), ...split['measures_long (2)']!.slice(1)]).toEqual(
      sheets['measures_long']!.slice(1),
    );
  });
});
