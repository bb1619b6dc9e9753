import { describe, expect, it } from 'vitest';
import { positional } from '../../../main/db/store/named-params';

describe('a query written with named parameters, as the store takes it', () => {
  it('has a ? for each name, in order, and a name used twice is bound twice', () => {
    expect(
      positional('SELECT id FROM r WHERE study_id = @study AND (a = @search OR b = @search) LIMIT @limit', {
        study: 1,
        search: '%x%',
        limit: 10,
        unused: 'no',
      }),
    ).toEqual({
      sql: 'SELECT id FROM r WHERE study_id = ? AND (a = ? OR b = ?) LIMIT ?',
      params: [1, '%x%', '%x%', 10],
    });
  });

  it('leaves an @ in quoted text, a quoted name or a comment alone', () => {
    expect(positional(`SELECT '@a', "@b" -- @c\nFROM t WHERE x = @a /* @b */`, { a: 2 })).toEqual({
      sql: `SELECT '@a', "@b" -- @c\nFROM t WHERE x = ? /* @b */`,
      params: [2],
    });
  });

  it('refuses a name it has no value for', () => {
    expect(() => positional('SELECT @nope', {})).toThrow(/@nope/);
  });
});
