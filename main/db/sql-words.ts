/**
 * A group of vocabulary words (shared/states.ts) written into SQL as a quoted literal list, `('a', 'b')`,
 * for `IN` and `NOT IN`. Literals rather than placeholders keep each statement fixed (prepared once)
 * and let SQLite match partial indexes whose condition names the same words. The words come from the
 * vocabularies, never from input; anything but lower-case words and underscores is refused.
 */
const written = new WeakMap<readonly string[], string>();

export const sqlWords = (words: readonly string[]): string => {
  const known = written.get(words);
  if (known !== undefined) return known;
  if (words.length === 0) throw new Error('An SQL list of states needs at least one state.');
  for (const w of words) if (!/^[a-z_]+$/.test(w)) throw new Error(`Not a vocabulary word for SQL: ${w}`);
  const list = `(${words.map((w) => `'${w}'`).join(', ')})`;
  written.set(words, list);
  return list;
};
