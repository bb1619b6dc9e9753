/**
 * The files load cleanly where researchers load them: Python's csv module, pandas and base R's
 * read.csv read every cell exactly as papaparse does (commas, quotes, line breaks, non-ASCII, the
 * Excel preset's BOM), and the generated load.py and load.R run and give typed tables with the text
 * restored. The real interpreters run (Debian's /usr/bin/python3 with pandas, Rscript); a missing
 * one is skipped with a loud message, never silently.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AWKWARD_CODES, seedAwkwardStudy } from './awkward-study';
import { mustExport, openExportStore, readCsv, tempDir, unneutralise } from './helpers';
import { describeWithTool } from '../../support/reference-tools';

const PYTHON = '/usr/bin/python3';

const tmp = tempDir();
const std = join(tmp.dir, 'standard');
const xl = join(tmp.dir, 'excel');
beforeAll(async () => {
  const store = await openExportStore(tmp.dir);
  await seedAwkwardStudy(store);
  await mustExport(store, { includeLinkFile: true }, { outDir: tmp.dir, folderName: 'standard' });
  await mustExport(store, { preset: 'excel' }, { outDir: tmp.dir, folderName: 'excel' });
  await store.close();
});
afterAll(() => tmp.cleanup());

const csvs = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .sort();

/** Runs a script; its stdout is JSON. */
const run = (cmd: string, args: string[], cwd: string): unknown => {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout) as unknown;
};

// Each reader prints {file: [[header...], [row...], ...]} with every cell as text.
const PY_CSV = `
import csv, json, sys, os
out = {}
for f in sorted(x for x in os.listdir('.') if x.endswith('.csv')):
    with open(f, newline='', encoding=sys.argv[1]) as h:
        out[f] = [row for row in csv.reader(h)]
print(json.dumps(out))
`;
const PANDAS = `
import json, os, sys, pandas as pd
out = {}
for f in sorted(x for x in os.listdir('.') if x.endswith('.csv')):
    df = pd.read_csv(f, dtype=str, keep_default_na=False, encoding=sys.argv[1])
    out[f] = [list(df.columns)] + df.values.tolist()
print(json.dumps(out))
`;
// Base R has no JSON writer: cells are printed as JSON strings by escaping them here.
const R_READ = `
args <- commandArgs(TRUE)
esc <- function(x) paste0('"', gsub('\\n', '\\\\n', gsub('\\r', '\\\\r', gsub('"', '\\\\"', gsub('\\\\', '\\\\\\\\', x, fixed = TRUE), fixed = TRUE), fixed = TRUE), fixed = TRUE), '"')
files <- sort(list.files('.', pattern = '\\\\.csv$'))
parts <- character(0)
for (f in files) {
  d <- read.csv(f, colClasses = 'character', na.strings = character(0), check.names = FALSE, encoding = 'UTF-8', fileEncoding = args[1])
  # One JSON array a row, built a column at a time (a loop over rows copies the data frame row by row).
  cells <- do.call(paste, c(unname(lapply(d, esc)), sep = ','))
  rows <- c(paste0('[', paste(esc(names(d)), collapse = ','), ']'), if (nrow(d) > 0) paste0('[', cells, ']'))
  parts <- c(parts, paste0(esc(f), ':[', paste(rows, collapse = ','), ']'))
}
cat(enc2utf8(paste0('{', paste(parts, collapse = ','), '}')))
`;

const expectSameAsPapaparse = (dir: string, read: Record<string, string[][]>) => {
  expect(Object.keys(read).sort()).toEqual(csvs(dir));
  for (const f of csvs(dir)) {
    const p = readCsv(join(dir, f));
    expect(read[f], f).toEqual([p.header, ...p.rows]);
  }
};

describeWithTool('python3', "Python's csv module", () => {
  it('reads every cell of the standard files as papaparse does', () => {
    writeFileSync(join(tmp.dir, 'read_csv.py'), PY_CSV);
    expectSameAsPapaparse(
      std,
      run(PYTHON, [join(tmp.dir, 'read_csv.py'), 'utf-8'], std) as Record<string, string[][]>,
    );
  });
  it('reads the Excel preset with utf-8-sig', () => {
    expectSameAsPapaparse(
      xl,
      run(PYTHON, [join(tmp.dir, 'read_csv.py'), 'utf-8-sig'], xl) as Record<string, string[][]>,
    );
  });
});

describeWithTool('pandas', 'pandas', () => {
  it('reads every cell as papaparse does (dtype=str, keep_default_na=False)', () => {
    writeFileSync(join(tmp.dir, 'read_pandas.py'), PANDAS);
    expectSameAsPapaparse(
      std,
      run(PYTHON, [join(tmp.dir, 'read_pandas.py'), 'utf-8'], std) as Record<string, string[][]>,
    );
  });

  it('load.py gives typed tables: numbers, nullable integers, booleans, UTC times, categories, restored text', () => {
    const check = `
import json, load
t = load.load()
lg, wide, summ, rec = t["measures_long"], t["measures_wide"], t["participant_summary"], t["recordings"]
print(json.dumps({
  "sizes": {k: len(v) for k, v in t.items()},
  "dtypes": {c: str(lg[c].dtype) for c in ["recording", "value", "simulated", "recorded_at_utc", "recorded_at_local", "analysis_state", "participant"]},
  "wide_rating": str(wide["wb_stress"].dtype), "wide_levels": sorted(set(wide["wb_stress"].dropna())),
  "flag_count": str(wide["flag_count"].dtype),
  "participants": sorted(set(lg["participant"])),
  "value_nulls": int(lg["value"].isna().sum()), "zeros": int((lg["value"] == 0).sum()),
  "neg_volume": bool((lg.loc[lg["measure"] == "pd_volume", "value"].dropna() < 0).all()),
  "tz": str(rec["recorded_at_utc"].dt.tz),
}))
`;
    writeFileSync(join(std, 'check_load.py'), check);
    const r = run(PYTHON, ['check_load.py'], std) as Record<string, unknown>;
    const long = readCsv(join(std, 'measures_long.csv'));
    expect(r['sizes']).toMatchObject({ measures_long: long.rows.length, participant_accounts: 13 });
    expect(r['dtypes']).toEqual({
      recording: 'Int64',
      value: 'float64',
      simulated: 'boolean',
      recorded_at_utc: 'datetime64[ns, UTC]',
      recorded_at_local: 'datetime64[ns]',
      analysis_state: 'category',
      participant: 'object',
    });
    // Ratings are text: a rating outside the listed classes is kept as received (flagged), and a
    // categorical with fixed levels would turn it into a missing value.
    expect(r['wide_rating']).toBe('object');
    expect(['low', 'moderate', 'high']).toEqual(expect.arrayContaining(r['wide_levels'] as string[]));
    expect(r['flag_count']).toBe('Int64');
    expect(r['participants']).toEqual([...AWKWARD_CODES].sort());
    expect(r['value_nulls']).toBe(long.records.filter((x) => x['value'] === '').length);
    expect(r['zeros']).toBe(long.records.filter((x) => x['value'] === '0').length);
    expect(r['neg_volume']).toBe(true);
    expect(r['tz']).toBe('UTC');
  });
});

describeWithTool('R', 'R', () => {
  it('read.csv reads every cell of the standard files as papaparse does', () => {
    writeFileSync(join(tmp.dir, 'read.R'), R_READ);
    expectSameAsPapaparse(
      std,
      run('Rscript', [join(tmp.dir, 'read.R'), 'UTF-8'], std) as Record<string, string[][]>,
    );
  });

  it('read.csv reads the Excel preset with fileEncoding = "UTF-8-BOM"', () => {
    expectSameAsPapaparse(
      xl,
      run('Rscript', [join(tmp.dir, 'read.R'), 'UTF-8-BOM'], xl) as Record<string, string[][]>,
    );
  });

  it('load.R runs from a shell and, sourced, gives typed data frames with the text restored', () => {
    const shell = spawnSync('Rscript', ['load.R'], { cwd: std, encoding: 'utf8' });
    expect(shell.status, shell.stderr).toBe(0);
    const long = readCsv(join(std, 'measures_long.csv'));
    expect(shell.stdout).toContain(`measures_long: ${long.rows.length} rows, ${long.header.length} columns`);
    writeFileSync(
      join(tmp.dir, 'check.R'),
      `
source(file.path(commandArgs(TRUE)[1], "load.R"))
d <- voicescope_load(commandArgs(TRUE)[1])
lg <- d$measures_long
cat(class(lg$value), class(lg$recording), class(lg$simulated), class(lg$recorded_at_utc)[1], class(lg$analysis_state), "\\n", sep = "|")
cat(sum(is.na(lg$value)), sum(lg$value == 0, na.rm = TRUE), all(lg$value[lg$measure == "pd_volume"] < 0, na.rm = TRUE), "\\n", sep = "|")
cat(class(d$measures_wide$wb_stress), all(na.omit(d$measures_wide$wb_stress) %in% c("low", "moderate", "high")), class(d$measures_wide$flag_count), "\\n", sep = "|")
writeLines(enc2utf8(sort(unique(lg$participant))), "participants.txt", useBytes = TRUE)
`,
    );
    const r = spawnSync('Rscript', [join(tmp.dir, 'check.R'), std], {
      cwd: tmp.dir,
      encoding: 'utf8',
      env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    });
    expect(r.status, r.stderr).toBe(0);
    const [types, counts, ordered] = r.stdout.split('\n');
    expect(types).toBe('numeric|integer|logical|POSIXct|factor|');
    expect(counts).toBe(
      `${long.records.filter((x) => x['value'] === '').length}|${long.records.filter((x) => x['value'] === '0').length}|TRUE|`,
    );
    // Ratings are text (kept values may lie outside the listed classes); the flag count is a whole number.
    expect(ordered).toBe('character|TRUE|integer|');
    const codes = spawnSync('cat', [join(tmp.dir, 'participants.txt')], { encoding: 'utf8' }).stdout;
    // writeLines splits the code that holds a line break; every other code comes back exactly.
    for (const c of AWKWARD_CODES.filter((x) => !x.includes('\n'))) expect(codes.split('\n')).toContain(c);
    expect(new Set(long.records.map((x) => unneutralise(x['participant']!)))).toEqual(new Set(AWKWARD_CODES));
  });
});
