/**
 * A query written with named parameters (`@name`, as better-sqlite3 binds an object) as the store
 * takes it: `?` placeholders and the values in their order, a name used twice bound twice. Quoted
 * text, quoted names and comments are left alone.
 */
import { skipQuoted } from './dialect';
import type { SqlValue } from './types';

export interface Positional {
  readonly sql: string;
  readonly params: SqlValue[];
}

const NAME = /^@([A-Za-z_][A-Za-z0-9_]*)/;

export const positional = (sql: string, named: Readonly<Record<string, SqlValue>>): Positional => {
  let out = '';
  const params: SqlValue[] = [];
  let i = 0;
  while (i < sql.length) {
    const end = skipQuoted(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    const m = sql[i] === '@' ? NAME.exec(sql.slice(i, i + 64)) : null;
    if (!m) {
      out += sql[i];
      i++;
      continue;
    }
    const name = m[1]!;
    if (!(name in named)) throw new Error(`No value for the parameter @${name}.`);
    params.push(named[name]!);
    out += '?';
    i += m[0].length;
  }
  return { sql: out, params };
};
