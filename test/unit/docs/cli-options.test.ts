/**
 * docs/cli.md describes each option of a command once: two descriptions of the same option drift apart
 * (they once gave two different defaults for --baseline-sessions).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI_MD = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'cli.md'), 'utf8');

/** The options each section describes in a list item of its own ("- `--name ...`"). */
const describedOptions = (markdown: string): Map<string, string[]> => {
  const bySection = new Map<string, string[]>();
  let section = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3);
    const m = /^- `(--[a-z-]+)/.exec(line);
    if (m) bySection.set(section, [...(bySection.get(section) ?? []), m[1]!]);
  }
  return bySection;
};

describe('docs/cli.md', () => {
  it('describes --baseline-sessions among the export options', () => {
    expect(describedOptions(CLI_MD).get('Exporting indicator spreadsheets')).toContain('--baseline-sessions');
  });

  it('describes each option once in each section', () => {
    const twice = [...describedOptions(CLI_MD)].flatMap(([section, options]) =>
      options.filter((o, i) => options.indexOf(o) !== i).map((o) => `${section}: ${o}`),
    );
    expect(twice).toEqual([]);
  });
});
