/**
 * Long functions become named stages: eslint.config.js refuses any function of the product (main/,
 * shared/, renderer/src/) longer than 150 lines, blank lines and comments not counted, with no exception.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)).default as Linter.Config[];
const RULE = 'max-lines-per-function';
const entries = config.filter((c) => c.rules?.[RULE] !== undefined);

/** A function of `lines` statement lines, with blank lines and comments between them that do not count. */
const functionOf = (lines: number): string =>
  `export const f = (): number => {\n  let n = 0;\n${Array.from({ length: lines - 4 }, (_, i) => `  n += ${i};\n\n  // step ${i}`).join('\n')}\n  return n;\n};\n`;

/** The length rule alone, as eslint.config.js sets it, over one file's text. */
const lengthErrors = async (file: string, source: string): Promise<string[]> => {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } },
      ...entries.map((e) => ({ ...(e.files ? { files: e.files } : {}), rules: { [RULE]: e.rules![RULE]! } })),
    ],
  });
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
};

describe('no function of the product over 150 lines', () => {
  it('is one rule with no exception (no entry turns it off or raises it)', () => {
    expect(entries).toHaveLength(1);
    expect(entries[0]!.rules![RULE]).toEqual([
      'error',
      { max: 150, skipBlankLines: true, skipComments: true },
    ]);
    expect(entries[0]!.ignores).toBeUndefined();
  });

  it.each(['main/services/x.service.ts', 'shared/x.ts', 'renderer/src/features/x/X.tsx'])(
    'refuses a 151-line function in %s and accepts 150 lines with its blank lines and comments',
    async (file) => {
      expect(await lengthErrors(file, functionOf(151))).toHaveLength(1);
      expect(await lengthErrors(file, functionOf(150))).toEqual([]);
    },
  );
});
