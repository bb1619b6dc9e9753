/**
 * JSON held in a column of the study database, decoded once, by its repository, against a zod schema:
 * a stored value that does not match is a StoredValueError naming the table and the column, never an
 * object of the wrong shape passed on.
 */
import type { z } from 'zod';

export class StoredValueError extends Error {
  override readonly name = 'StoredValueError';
  constructor(
    readonly table: string,
    readonly column: string,
    readonly problem: string,
  ) {
    super(
      `The study database holds a value in ${table}.${column} that this version cannot read: ${problem}.`,
    );
  }
}

export interface JsonColumn<T> {
  /** A stored value; StoredValueError when it is not JSON or not of the column's shape. */
  decode(text: string): T;
  /** The same, with SQL NULL (and an empty text) read as null. */
  decodeOrNull(text: string | null): T | null;
}

const firstIssue = (e: z.ZodError): string => {
  const i = e.issues[0];
  return i ? `${i.path.length > 0 ? i.path.join('.') : 'the value'}: ${i.message}` : 'it does not match';
};

/** How many distinct texts a column whose values repeat keeps decoded. */
const REMEMBERED = 64;

/**
 * `valuesRepeat`: most rows hold one of a few texts (a study's settings), so each distinct text is
 * decoded once and the same (read-only) value handed to every row that holds it.
 */
export const jsonColumn = <S extends z.ZodType>(
  table: string,
  column: string,
  schema: S,
  opts: { readonly valuesRepeat?: boolean } = {},
): JsonColumn<z.output<S>> => {
  const decodeText = (text: string): z.output<S> => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new StoredValueError(table, column, 'it is not JSON');
    }
    const r = schema.safeParse(raw);
    if (!r.success) throw new StoredValueError(table, column, firstIssue(r.error));
    return r.data;
  };
  const seen = new Map<string, z.output<S>>();
  const decode = !opts.valuesRepeat
    ? decodeText
    : (text: string): z.output<S> => {
        if (seen.has(text)) return seen.get(text) as z.output<S>;
        const value = decodeText(text);
        if (seen.size >= REMEMBERED) seen.clear();
        seen.set(text, value);
        return value;
      };
  return { decode, decodeOrNull: (text) => (text === null || text === '' ? null : decode(text)) };
};
