/**
 * Tests that check the product against another program (R, pandas, Praat, PSPP, ffmpeg, openpyxl) declare
 * it here. Where the program is installed the test runs; where it is not, the test is skipped with the
 * command that installs it, except in CI (`CI` set), where a missing reference tool is a failure, never
 * a skip. The tools and their Debian packages are listed once, in scripts/test-tools.mjs.
 */
import { describe, it } from 'vitest';
import { installCommand, TEST_TOOLS, type TestTool } from '../../scripts/test-tools.mjs';

export type ReferenceTool =
  'python3' | 'R' | 'pandas' | 'praat' | 'ffmpeg' | 'pspp' | 'openpyxl' | 'postgresql-15';

/** Whether this is a CI run (`CI=true`, as .ci/run sets, or any other value but `0` and `false`). */
export const inCi = (env: NodeJS.ProcessEnv = process.env): boolean => {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
};

const toolNamed = (name: ReferenceTool): TestTool => {
  const tool = TEST_TOOLS.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`scripts/test-tools.mjs lists no tool named ${name}`);
  return tool;
};

const presence = new Map<ReferenceTool, boolean>();
/** Whether the tool is installed (asked once per test file). */
export const hasTool = (name: ReferenceTool): boolean => {
  const known = presence.get(name);
  if (known !== undefined) return known;
  const present = toolNamed(name).present();
  presence.set(name, present);
  return present;
};

/** One tool or several (a test that reads a workbook with pandas needs pandas and openpyxl). */
type Needs = ReferenceTool | readonly ReferenceTool[];
const listOf = (needs: Needs): readonly ReferenceTool[] => (typeof needs === 'string' ? [needs] : needs);

const missingSentence = (needs: Needs): string => {
  const missing = listOf(needs)
    .filter((n) => !hasTool(n))
    .map(toolNamed);
  const what = missing.map((t) => `${t.name} (${t.why})`).join(' and ');
  return `not installed: ${what}; install with: ${installCommand(missing)}`;
};

/** What happens to a test that needs a tool: it runs, it is skipped (outside CI), or it fails (CI). */
export const toolFate = (present: boolean, ci: boolean): 'run' | 'skip' | 'fail' =>
  present ? 'run' : ci ? 'fail' : 'skip';
const fate = (needs: Needs) => toolFate(listOf(needs).every(hasTool), inCi());
const failure = (needs: Needs) => () => {
  throw new Error(`${missingSentence(needs)}. In CI a missing reference tool is a failure, not a skip.`);
};

/** `describe` for a group of tests that need a reference tool. */
export const describeWithTool = (needs: Needs, title: string, body: () => void): void => {
  const f = fate(needs);
  if (f === 'run') describe(title, body);
  else if (f === 'skip') describe.skip(`${title} (skipped, ${missingSentence(needs)})`, body);
  else describe(title, () => it(`needs ${listOf(needs).join(' and ')}`, failure(needs)));
};

/** `it` for one test that needs a reference tool. */
export const itWithTool = (needs: Needs, title: string, fn: () => unknown, timeout?: number): void => {
  const f = fate(needs);
  if (f === 'run') it(title, fn, timeout);
  else if (f === 'skip') it.skip(`${title} (skipped, ${missingSentence(needs)})`, fn);
  else it(title, failure(needs));
};
