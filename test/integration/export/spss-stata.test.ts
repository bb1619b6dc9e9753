/**
 * The files for SPSS and Stata. load.sps is run in GNU PSPP (a free implementation of SPSS syntax):
 * every table it saves has the CSV's rows, its values (numbers, times, restored text) and a value label
 * for every category. A table with a missing-reason column gets the numeric missing codes, declared as
 * missing. There is no Stata here, so load.do is checked by a parser of our own: every variable it
 * names exists in the CSV it reads, names are valid Stata names of at most 32 characters, labels have
 * at most 80 characters, quotes and braces are balanced, and the missing codes are the extended
 * missing values of shared/missing-data.ts. PSPP missing is skipped with a loud message.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileDef } from '../../../shared/export';
import { MISSING_REASONS } from '../../../shared/missing-data';
import { loadDo, STATA_LABEL_CHARS, STATA_RESERVED } from '../../../main/export/load-do';
import { loadSps } from '../../../main/export/load-sps';
import { levelLabel, statTable } from '../../../main/export/stat-variables';
import { TextWidths } from '../../../main/export/text-widths';
import { seedAwkwardStudy } from './awkward-study';
import { mustExport, openExportStore, readCsv, tempDir, unneutralise } from './helpers';
import { describeWithTool, itWithTool } from '../../support/reference-tools';

const tmp = tempDir();
const dir = join(tmp.dir, 'spss');
beforeAll(async () => {
  const store = await openExportStore(tmp.dir);
  await seedAwkwardStudy(store);
  // SPSS reads one line per case: a code with a line break cannot be read by any SPSS syntax (load.sps
  // says so in a warning, tested below); here the code gets a space instead.
  await store.run('UPDATE participants SET code = ? WHERE code = ?', ['two lines', 'two\nlines']);
  await mustExport(
    store,
    { includeLinkFile: true, extras: ['spss', 'stata'] },
    { outDir: tmp.dir, folderName: 'spss' },
  );
  await store.close();
});
afterAll(() => tmp.cleanup());

const runPspp = (cwd: string, file: string) => {
  const r = spawnSync('pspp', [file, '-O', 'format=txt', '-o', join(cwd, 'pspp-out.txt')], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
  });
  const listing = existsSync(join(cwd, 'pspp-out.txt'))
    ? readFileSync(join(cwd, 'pspp-out.txt'), 'utf8')
    : '';
  return { status: r.status, text: `${r.stdout}${r.stderr}${listing}` };
};

/** A saved .sav as rows of text, through pspp-convert (values, or value labels with `--labels`). */
const savRows = (sav: string, ...opts: string[]): Record<string, string>[] => {
  const out = `${sav}.${opts.join('')}.csv`;
  const r = spawnSync('pspp-convert', [...opts, sav, out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pspp-convert ${sav}: ${r.stderr}`);
  const parsed = Papa.parse<string[]>(readFileSync(out, 'utf8'), { skipEmptyLines: true });
  const [header, ...rows] = parsed.data;
  return rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, (row[i] ?? '').trimEnd()])));
};

/** 2024-03-05T09:30:00.25Z as pspp-convert prints a date-time: 03/05/2024 09:30:00. */
const psppTime = (iso: string): string =>
  iso === '' ? '' : `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;

describeWithTool('pspp', 'load.sps in GNU PSPP', () => {
  let run: { status: number | null; text: string };
  beforeAll(() => {
    run = runPspp(dir, 'load.sps');
  });

  it('runs without an error or a warning and saves a .sav for every table with rows', () => {
    expect(run.status, run.text).toBe(0);
    expect(run.text).not.toMatch(/error|warning/i);
    for (const t of [
      'measures_long',
      'measures_wide',
      'participant_summary',
      'recordings',
      'participant_accounts',
    ])
      expect(existsSync(join(dir, `${t}.sav`)), t).toBe(true);
  });

  it('reads every table with its number of rows, and every number, time and text as written', () => {
    for (const t of ['measures_long', 'measures_wide', 'participant_summary', 'recordings']) {
      const csv = readCsv(join(dir, `${t}.csv`));
      const sav = savRows(join(dir, `${t}.sav`));
      expect(sav.length, t).toBe(csv.records.length);
      const cols = JSON.parse(readFileSync(join(dir, 'datapackage.json'), 'utf8')) as {
        resources: {
          path: string;
          schema?: {
            fields: {
              name: string;
              type: string;
              format: string;
              constraints?: { enum?: string[] };
              'voicescope:measure'?: string;
            }[];
          };
        }[];
      };
      const fields = cols.resources.find((r) => r.path === `${t}.csv`)!.schema!.fields;
      csv.records.forEach((row, i) => {
        for (const f of fields) {
          const want = row[f.name]!;
          const got = sav[i]![f.name]!;
          const where = `${t} row ${i + 1} ${f.name}`;
          if (f.type === 'number' || f.type === 'integer')
            expect(got === '' ? null : Number(got), where).toBe(want === '' ? null : Number(want));
          else if (f.type === 'datetime')
            expect(got, where).toBe(
              f.format === 'default' ? psppTime(want) : want.replace(/^(\d+)-(\d+)-(\d+)/, '$2/$3/$1'),
            );
          else if (f.type === 'string' && !f.constraints?.enum && !f['voicescope:measure'])
            expect(got, where).toBe(unneutralise(want).trimEnd());
        }
      });
    }
  });

  it('gives every category and yes/no column value labels that say what the CSV says', () => {
    const recs = readCsv(join(dir, 'recordings.csv')).records;
    const labelled = savRows(join(dir, 'recordings.sav'), '--labels');
    recs.forEach((r, i) => {
      for (const c of ['upload_state', 'recorded_at_source', 'api_version', 'converted', 'simulated'])
        expect(labelled[i]![c], c).toBe(levelLabel(r[c]!));
    });
    const long = readCsv(join(dir, 'measures_long.csv')).records;
    const longLabels = savRows(join(dir, 'measures_long.sav'), '--labels');
    long.forEach((r, i) => {
      // Analysis types are labelled in words (Wellbeing, Parkinson's…); states and measures by their codes.
      for (const c of ['analysis', 'analysis_state', 'measure', 'kind'])
        expect(longLabels[i]![c], c).toBe(levelLabel(r[c]!));
    });
    // Rating classes are ordered codes with labels; the codes follow the specification's order.
    const wide = readCsv(join(dir, 'measures_wide.csv')).records;
    const wideCodes = savRows(join(dir, 'measures_wide.sav'));
    const wideLabels = savRows(join(dir, 'measures_wide.sav'), '--labels');
    wide.forEach((r, i) => {
      if (r['wb_stress'] === '') return;
      expect(wideLabels[i]!['wb_stress']).toBe(r['wb_stress']);
      expect(wideCodes[i]!['wb_stress']).toBe(
        String(['low', 'moderate', 'high'].indexOf(r['wb_stress']!) + 1),
      );
    });
  });

  it('warns in the syntax where a text holds a line break, which SPSS cannot read', async () => {
    const store = await openExportStore(tmp.dir, 'lb.sqlite');
    await seedAwkwardStudy(store);
    await mustExport(store, { extras: ['spss'] }, { outDir: tmp.dir, folderName: 'lb' });
    await store.close();
    const sps = readFileSync(join(tmp.dir, 'lb', 'load.sps'), 'utf8');
    expect(sps).toMatch(/\* Warning: recordings\.csv has text with line breaks/);
  });
});

// ---- a table with a missing-reason column, as the visits and completeness files will have ----

const VISITS: FileDef = {
  name: 'visits.csv',
  role: 'data',
  title: 'Visits',
  rowIs: 'one expected visit of a participant',
  description: 'A test table.',
  primaryKey: ['participant', 'visit'],
  foreignKeys: [{ fields: ['recording'], resource: 'recordings', referenceFields: ['recording'] }],
  columns: [
    {
      name: 'participant',
      title: 'Participant',
      type: 'string',
      description: '',
      required: true,
      neutralised: true,
    },
    { name: 'visit', title: 'Visit', type: 'integer', description: '', required: true, neutralised: false },
    {
      name: 'recording',
      title: 'Recording',
      type: 'integer',
      description: '',
      required: false,
      neutralised: false,
    },
    {
      name: 'missing_reason',
      title: 'Why the visit has no values',
      type: 'string',
      description: '',
      required: false,
      neutralised: false,
      enum: MISSING_REASONS.map((m) => m.code),
    },
    {
      name: 'pd_volume',
      title: 'Volume',
      type: 'number',
      description: '',
      required: false,
      neutralised: false,
    },
    {
      name: 'days',
      title: 'Days since baseline',
      type: 'integer',
      description: '',
      required: false,
      neutralised: false,
    },
  ],
};
const VISIT_ROWS = [
  ['P1', '1', '10', '', '-20.5', '0'],
  ['P1', '2', '', 'NR', '', ''],
  ['P1', '3', '', 'RL', '', '14'],
  ['P2', '1', '11', '', '-22', '0'],
  ['P2', '2', '', 'WD', '', ''],
  ['P2', '3', '', 'ND', '', ''],
];

describe('a table with a missing-reason column', () => {
  const vdir = join(tmp.dir, 'visits');
  const table = statTable(VISITS, VISIT_ROWS.length);
  beforeAll(() => {
    mkdirSync(vdir, { recursive: true });
    writeFileSync(
      join(vdir, 'visits.csv'),
      [VISITS.columns.map((c) => c.name), ...VISIT_ROWS].map((r) => `${r.join(',')}\r\n`).join(''),
    );
    const w = new TextWidths(VISITS.columns.length);
    VISIT_ROWS.forEach((r) => r.forEach((c, i) => w.note(i, c)));
    writeFileSync(join(vdir, 'load.sps'), loadSps([table], new Map([['visits.csv', w]]), 'UTC'));
    writeFileSync(join(vdir, 'load.do'), loadDo([table], 'UTC'));
  });

  it('codes the empty numbers of a row with a reason, and only those, never keys or required columns', () => {
    expect(table.reason).toBe('missing_reason');
    expect(table.variables.filter((v) => v.coded).map((v) => v.name)).toEqual(['pd_volume', 'days']);
  });

  itWithTool('pspp', 'SPSS: the reason as its numeric code, empty values coded and declared missing', () => {
    const r = runPspp(vdir, 'load.sps');
    expect(r.status, r.text).toBe(0);
    expect(r.text).not.toMatch(/error|warning/i);
    const values = savRows(join(vdir, 'visits.sav'));
    const spss = (code: string) => String(MISSING_REASONS.find((m) => m.code === code)!.spss);
    expect(values.map((v) => [v['missing_reason'], v['pd_volume'], v['days'], v['recording']])).toEqual([
      ['', '-20.5', '0', '10'],
      [spss('NR'), spss('NR'), spss('NR'), ''],
      [spss('RL'), spss('RL'), '14', ''],
      ['', '-22', '0', '11'],
      [spss('WD'), spss('WD'), spss('WD'), ''],
      [spss('ND'), spss('ND'), spss('ND'), ''],
    ]);
    // Declared missing: pspp-convert --recode turns user-missing values into system-missing.
    const recoded = savRows(join(vdir, 'visits.sav'), '--recode');
    expect(recoded.map((v) => v['pd_volume'])).toEqual(['-20.5', '', '', '-22', '', '']);
    const labels = savRows(join(vdir, 'visits.sav'), '--labels');
    expect(labels[1]!['missing_reason']).toBe('Not recorded (NR)');
    expect(labels[1]!['pd_volume']).toBe('Not recorded (NR)');
  });

  it('Stata: extended missing values .a to .j, from the one vocabulary', () => {
    const text = readFileSync(join(vdir, 'load.do'), 'utf8');
    for (const m of MISSING_REASONS)
      expect(text).toContain(
        `quietly replace \`v' = ${m.stata} if missing(\`v') & missing_reason == "${m.code}"`,
      );
    expect(text).toContain('foreach v of varlist ///\n  pd_volume days ///\n{');
    expect(text).toContain('label values pd_volume vs_missing');
    checkDoFile(text, vdir);
  });
});

// ---- a parser-level check of a do-file ----

const STATA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/** Joins `///` continuations, drops comment lines; one logical command per entry. */
const commands = (text: string): string[] => {
  const out: string[] = [];
  let cur = '';
  for (const line of text.split('\n')) {
    if (cur === '' && line.trimStart().startsWith('*')) continue;
    const cont = line.match(/^(.*?)\s*\/\/\/\s*$/);
    if (cont) cur += `${cont[1]} `;
    else {
      cur += line;
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    }
  }
  expect(cur, 'a continuation at the end of the file').toBe('');
  return out;
};

const strings = (cmd: string): string[] => [...cmd.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);

function checkDoFile(text: string, folder: string): void {
  const cmds = commands(text);
  let braces = 0;
  let header: string[] | null = null;
  let names: string[] = [];
  const programs = new Set<string>();
  let inProgram = false;
  for (const cmd of cmds) {
    // Quotes: every double quote is paired on its command line; macro quotes `…' are balanced.
    expect((cmd.match(/"/g) ?? []).length % 2, cmd).toBe(0);
    const bare = cmd.replace(/"[^"]*"/g, '""');
    expect((bare.match(/`/g) ?? []).length, cmd).toBe((bare.match(/'/g) ?? []).length);
    braces += (bare.match(/\{/g) ?? []).length - (bare.match(/\}/g) ?? []).length;
    expect(braces, cmd).toBeGreaterThanOrEqual(0);
    const [word, ...rest] = cmd.split(/\s+/);
    if (word === 'program') {
      programs.add(rest.at(-1)!);
      inProgram = true;
      continue;
    }
    if (word === 'end') {
      inProgram = false;
      continue;
    }
    if (inProgram) continue;
    const known = (n: string) => {
      expect(n, `${cmd}: not a Stata name`).toMatch(STATA_NAME);
      expect(STATA_RESERVED, cmd).not.toContain(n);
      expect(names, `${cmd}: ${n} is not a column of the CSV`).toContain(n);
    };
    if (word === 'import') {
      const file = cmd.match(/using "([^"]+)"/)![1]!;
      header = readCsv(join(folder, file)).header;
      names = [];
      expect(cmd).toMatch(/varnames\(nonames\) rowrange\(2\) stringcols\(_all\)/);
      expect(cmd).toMatch(/bindquotes\(strict\)/);
    } else if (word === 'rename') {
      const [, from, to] = cmd.match(/^rename \(\s*(.*?)\s*\) \(\s*(.*?)\s*\)$/)!;
      const f = from!.split(/\s+/);
      const t = to!.split(/\s+/);
      expect(f).toEqual(header!.map((_, i) => `v${i + 1}`));
      expect(t, 'every column, in the CSV header order').toEqual(header);
      names = t;
      for (const n of t) known(n);
    } else if (programs.has(word!)) known(rest[0]!);
    else if (word === 'label' && rest[0] === 'variable') {
      known(rest[1]!);
      const label = strings(cmd)[0]!;
      expect([...label].length, cmd).toBeLessThanOrEqual(STATA_LABEL_CHARS);
    } else if (word === 'label' && rest[0] === 'values') known(rest[1]!);
    else if (word === 'label' && (rest[0] === 'define' || rest[0] === 'data')) {
      if (rest[0] === 'define') expect(rest[1]!, cmd).toMatch(STATA_NAME);
      for (const s of strings(cmd)) expect([...s].length, cmd).toBeLessThanOrEqual(STATA_LABEL_CHARS);
      if (rest[0] === 'define')
        // value label pairs: an integer or an extended missing value, then a string
        expect(cmd.replace(/^label define \w+ /, '').replace(/, modify$/, '')).toMatch(
          /^((-?\d+|\.[a-z]) "[^"]*"\s*)+$/,
        );
    } else if (word === 'foreach') {
      const vars = cmd
        .match(/^foreach v of varlist (.*?)\s*\{$/)![1]!
        .trim()
        .split(/\s+/);
      for (const n of vars) known(n);
    } else if (word === 'quietly') {
      const m = cmd.match(/^quietly replace `v' = (\.[a-z]) if missing\(`v'\) & (\w+) == "(\w+)"$/)!;
      expect(MISSING_REASONS.map((r) => r.stata)).toContain(m[1]);
      known(m[2]!);
    } else if (word === 'save') expect(cmd).toMatch(/^save "[a-z_]+\.dta", replace$/);
    else expect(['version', 'set', 'capture', 'compress', '}'], cmd).toContain(word);
  }
  expect(braces).toBe(0);
}

describe('the codebook and datapackage.json', () => {
  it('list load.sps and load.do with their hashes, and the missing-data codes in both forms', () => {
    const codebook = readFileSync(join(dir, 'codebook.md'), 'utf8');
    expect(codebook).toMatch(/\| `load\.sps` \|.*\| `[0-9a-f]{64}` \|/);
    expect(codebook).toMatch(/\| `load\.do` \|.*\| `[0-9a-f]{64}` \|/);
    expect(codebook).toContain('### Files for statistics packages');
    for (const m of MISSING_REASONS)
      expect(codebook).toContain(`| \`${m.code}\` | ${m.reason} | ${m.spss} | ${m.stata} | ${m.label} |`);
    expect(codebook).toMatch(/\| Files for statistics packages \| spss: load\.sps, stata: load\.do \|/);
    const pkg = JSON.parse(readFileSync(join(dir, 'datapackage.json'), 'utf8')) as {
      resources: { name: string; path: string }[];
    };
    expect(pkg.resources.filter((r) => r.name.startsWith('loader-')).map((r) => r.path)).toEqual([
      'load.R',
      'load.py',
      'load.sps',
      'load.do',
    ]);
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8');
    expect(sums).toMatch(/ {2}load\.sps\n/);
    expect(sums).toMatch(/ {2}load\.do\n/);
  });
});

describe('load.do, checked by a parser (there is no Stata here)', () => {
  it('names only columns of the CSV it reads, with valid names and labels of at most 80 characters', () => {
    const text = readFileSync(join(dir, 'load.do'), 'utf8');
    checkDoFile(text, dir);
    // Every table with rows is read and saved; empty ones are named in the header.
    for (const t of [
      'measures_long',
      'measures_wide',
      'participant_summary',
      'recordings',
      'participant_accounts',
    ])
      expect(text).toContain(`save "${t}.dta", replace`);
    expect(text).toMatch(
      /\* Not read \(no rows in this export\): .*data_quality\.csv, answers_as_received\.csv/,
    );
  });

  it('encodes categories with their values in the documented order, booleans as 0/1', () => {
    const text = readFileSync(join(dir, 'load.do'), 'utf8');
    expect(text).toContain('label define vs_bool 0 "false" 1 "true"');
    expect(text).toContain('_vs_encode converted vs_bool');
    expect(text).toContain('label define wb_stress 1 "low" 2 "moderate" 3 "high"');
    expect(text).toContain(
      'label define analysis 1 "wellbeing" 2 "parkinsons" 3 "alzheimers" 4 "communication_coach"',
    );
    expect(text).toMatch(/label define analysis 1 "Wellbeing" .*, modify/);
  });
});
