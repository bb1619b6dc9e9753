/**
 * `npm run bench -- <name>` runs the section of test/bench/<name>.bench.ts, and only that one: every
 * bench file has a section keyed by its name, and a key selects its own section even where it is also
 * a word of another's title (`export` is in both export sections' titles).
 */
import { readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { BENCH_SECTIONS, selectedSections } from '../../bench/sections';

const benchFiles = readdirSync(new URL('../../bench/', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();

it('has one section per bench file, keyed by the file name', () => {
  expect(BENCH_SECTIONS.map((s) => s.key).sort()).toEqual(benchFiles);
});

it('runs the one section a key names', () => {
  for (const key of benchFiles) expect(selectedSections([key]).map((s) => s.key)).toEqual([key]);
  expect(selectedSections(['export-extras', 'db']).map((s) => s.key)).toEqual(['db', 'export-extras']);
});

it('still selects by a word of the title, and everything without an argument', () => {
  expect(selectedSections(['Praat']).map((s) => s.key)).toEqual(['acoustics']);
  expect(selectedSections([])).toHaveLength(BENCH_SECTIONS.length);
});
