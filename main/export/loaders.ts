/**
 * load.R and load.py: scripts written next to the CSVs that read every table with the codebook's
 * types (numbers, integers, booleans, UTC and local times, categories in their documented order) and
 * undo the formula neutralisation of free text. Generated from the same column schema as the files.
 * Both read every cell as text first, with only the empty cell as missing, so a participant code
 * such as "NA" or "null" stays text (R's and pandas' defaults would make it missing).
 */
import type { ColumnDef, FileDef } from '../../shared/export';

const rString = (s: string): string => JSON.stringify(s); // R accepts JSON's double-quoted escapes for these ASCII-safe strings
const pyString = (s: string): string => JSON.stringify(s);

const rConvert = (c: ColumnDef, tz: string): string | null => {
  const x = `d[[${rString(c.name)}]]`;
  if (c.enum)
    return `${x} <- factor(${x}, levels = c(${c.enum.map(rString).join(', ')})${c.measure ? ', ordered = TRUE' : ''})`;
  switch (c.type) {
    case 'integer':
      return `${x} <- as.integer(${x})`;
    case 'number':
      return `${x} <- as.numeric(${x})`;
    case 'boolean':
      return `${x} <- ${x} == "true"`;
    case 'datetime':
      return c.timeFormat === 'local'
        ? `${x} <- as.POSIXct(${x}, format = "%Y-%m-%d %H:%M:%S", tz = ${rString(tz)})`
        : `${x} <- as.POSIXct(${x}, format = "%Y-%m-%dT%H:%M:%OSZ", tz = "UTC")`;
    case 'string':
      return c.neutralised ? `${x} <- sub("^'", "", ${x})` : null;
  }
};

export const loadR = (tables: readonly FileDef[], tz: string): string => {
  const out = [
    "# Reads this Voicescope export into R data frames with the codebook's types (base R only).",
    '#   source("load.R"); d <- voicescope_load(); str(d$measures_long)',
    "# or from a shell: Rscript load.R (prints each table's size).",
    '# Every cell is read as text first with only "" as missing, so a participant code "NA" stays text;',
    "# local times are in the export's time zone; a leading ' added against spreadsheet formulas is removed.",
    '',
    '.voicescope_dir <- function() {',
    '  arg <- grep("^--file=", commandArgs(FALSE), value = TRUE)',
    '  if (length(arg) > 0) return(dirname(normalizePath(sub("^--file=", "", arg[1]))))',
    '  for (i in rev(seq_len(sys.nframe()))) { f <- sys.frame(i)$ofile; if (!is.null(f)) return(dirname(normalizePath(f))) }',
    '  getwd()',
    '}',
    '.voicescope_here <- .voicescope_dir()',
    '',
    '.voicescope_read <- function(dir, file) {',
    '  read.csv(file.path(dir, file), fileEncoding = "UTF-8-BOM", encoding = "UTF-8", colClasses = "character",',
    '           na.strings = "", check.names = FALSE, stringsAsFactors = FALSE)',
    '}',
    '',
    'voicescope_load <- function(dir = .voicescope_here) {',
    '  tables <- list()',
  ];
  for (const t of tables) {
    out.push(`  d <- .voicescope_read(dir, ${rString(t.name)})`);
    for (const c of t.columns) {
      const line = rConvert(c, tz);
      if (line) out.push(`  ${line}`);
    }
    out.push(`  tables[[${rString(t.name.replace(/\.csv$/, ''))}]] <- d`);
  }
  out.push(
    '  tables',
    '}',
    '',
    'if (sys.nframe() == 0L) {',
    '  d <- voicescope_load()',
    '  for (n in names(d)) cat(n, ": ", nrow(d[[n]]), " rows, ", ncol(d[[n]]), " columns\\n", sep = "")',
    '}',
    '',
  );
  return out.join('\n');
};

const pyKind = (c: ColumnDef): string => {
  if (c.enum) return c.measure ? 'ordered' : 'category';
  if (c.type === 'datetime') return c.timeFormat === 'local' ? 'local' : 'utc';
  if (c.type === 'string') return c.neutralised ? 'text_neutralised' : 'text';
  return c.type;
};

export const loadPy = (tables: readonly FileDef[], tz: string): string => {
  const spec = tables
    .map(
      (t) =>
        `    ${pyString(t.name.replace(/\.csv$/, ''))}: (${pyString(t.name)}, [\n${t.columns
          .map(
            (c) =>
              `        (${pyString(c.name)}, ${pyString(pyKind(c))}, ${c.enum ? `[${c.enum.map(pyString).join(', ')}]` : 'None'}),`,
          )
          .join('\n')}\n    ]),`,
    )
    .join('\n');
  return `"""Reads this Voicescope export into pandas DataFrames with the codebook's types.

    import load; tables = load.load(); tables["measures_long"].info()
or from a shell: python3 load.py (prints each table's size).
Every cell is read as text first with only "" as missing, so a participant code "NA" stays text;
local times are naive datetimes in ${tz}; a leading ' added against spreadsheet formulas is removed.
"""
import os

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
LOCAL_TIME_ZONE = ${pyString(tz)}

TABLES = {
${spec}
}


def _convert(df, name, kind, levels):
    x = df[name]
    if kind in ("category", "ordered"):
        return pd.Categorical(x, categories=levels, ordered=(kind == "ordered"))
    if kind == "integer":
        return pd.to_numeric(x).astype("Int64")
    if kind == "number":
        return pd.to_numeric(x).astype("float64")
    if kind == "boolean":
        return x.map({"true": True, "false": False}).astype("boolean")
    if kind == "utc":
        return pd.to_datetime(x, utc=True)
    if kind == "local":
        return pd.to_datetime(x, format="%Y-%m-%d %H:%M:%S")
    if kind == "text_neutralised":
        return x.str.replace(r"^'", "", n=1, regex=True)
    return x


def read_table(key, directory=HERE):
    file, columns = TABLES[key]
    df = pd.read_csv(os.path.join(directory, file), encoding="utf-8-sig", dtype=str,
                     keep_default_na=False, na_values=[""])
    for name, kind, levels in columns:
        df[name] = _convert(df, name, kind, levels)
    return df


def load(directory=HERE):
    return {key: read_table(key, directory) for key in TABLES}


if __name__ == "__main__":
    for key, df in load().items():
        print(f"{key}: {len(df)} rows, {len(df.columns)} columns")
`;
};
