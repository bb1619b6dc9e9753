/**
 * study.xlsx is written in bounded memory: a table of 300,000 rows (about 150 MB of sheet XML) written
 * through its CSV into the workbook's sheet makes the process's peak memory grow by no more than a table
 * of 50,000 rows does, within 32 MB of resident set (its high-water mark varies by about 15 MB from run
 * to run) and 16 MB of heap and buffers: each CSV's bytes go to the sheets' thread as they come, the
 * sheet is deflated into its part file as it is built, and the export waits for the sheets instead of
 * holding what they have not taken. (exceljs's streaming writer, used before, grew by about 0.45 KB a
 * row: 112 MB more for the 250,000 more rows.) Measured in a child process of its own, so nothing else
 * this worker holds counts; the child runs from the sources through tsx, which the sheets' thread loads
 * too, so what the growth holds besides the rows is larger here than in the app's bundle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from './helpers';

const ROWS = 300_000;
const FEW_ROWS = 50_000;
const MORE_RSS_MB = 32;
const MORE_USED_MB = 16;
const tmp = tempDir();
afterAll(() => tmp.cleanup());

interface Growth {
  readonly rssGrowthMb: number;
  readonly usedGrowthMb: number;
  readonly bytes: number;
}

const write = (rows: number): Growth => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  const child = fileURLToPath(new URL('./workbook-memory.child.ts', import.meta.url));
  const dir = join(tmp.dir, String(rows));
  mkdirSync(dir);
  const r = spawnSync(process.execPath, ['--import', tsx, child, dir, String(rows)], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '))!;
  return JSON.parse(line.slice(7)) as Growth;
};

it(`writes a ${ROWS.toLocaleString('en')}-row sheet in the memory a ${FEW_ROWS.toLocaleString('en')}-row one takes`, () => {
  const few = write(FEW_ROWS);
  const many = write(ROWS);
  expect(many.bytes).toBeGreaterThan(5 * few.bytes);
  expect(many.rssGrowthMb - few.rssGrowthMb, 'more peak resident memory (MB)').toBeLessThan(MORE_RSS_MB);
  expect(many.usedGrowthMb - few.usedGrowthMb, 'more peak heap + external (MB)').toBeLessThan(MORE_USED_MB);
}, 240_000);
