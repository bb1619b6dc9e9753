/**
 * SQL lives only in main/db/: handlers call services, services call repositories (main/db/repos/),
 * and no other module of the main process holds a statement. Every string and template piece of
 * main/ outside main/db/ is read with the TypeScript parser and checked against the same pattern as
 * the ESLint rule (eslint.config.js, no-restricted-syntax); a statement found elsewhere is named by
 * file and line. Statements run through the driver directly (`.prepare(`, `.pragma(`) are caught too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The ESLint rule's pattern: a string that starts like a statement. */
const SQL =
  /^\s*(SELECT|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|VIEW|TRIGGER)|WITH\s+\w+\s+AS)\b/i;

/** Calls of the database driver that carry SQL or change the connection. */
const DRIVER_CALL = new Set(['prepare', 'pragma']);

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((e) => {
    const rel = join(dir, e);
    if (statSync(join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.ts$/.test(e) && !/\.d\.ts$/.test(e) ? [rel.split(sep).join('/')] : [];
  });

const outsideDb = () => sources('main').filter((f) => !f.startsWith('main/db/'));

/** `file:line  what` for each SQL-looking string and each driver call in the file. */
const findingsIn = (file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      if (SQL.test(node.text))
        found.push(`${file}:${at(node)}  ${node.text.trim().split(/\s+/).slice(0, 4).join(' ')}…`);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      DRIVER_CALL.has(node.expression.name.text)
    ) {
      found.push(`${file}:${at(node)}  .${node.expression.name.text}(…)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

describe('SQL outside main/db/', () => {
  it('finds the sources it checks', () => {
    const files = outsideDb();
    expect(files).toContain('main/services/study-service.ts');
    expect(files).toContain('main/rpc/handlers/exports.handlers.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it('recognises a statement in a string, a template and a driver call (the check itself works)', () => {
    expect(SQL.test('SELECT id FROM studies')).toBe(true);
    expect(SQL.test('  insert or ignore into settings (key) VALUES (?)')).toBe(true);
    expect(SQL.test('Update the key, then select a study')).toBe(false);
    const sample = [
      "const a = db.prepare('SELECT 1');",
      'const b = `UPDATE recordings SET upload_state = ${state}`;',
      "db.pragma('secure_delete = ON');",
      "const label = 'Update the key, then select a study';",
    ].join('\n');
    expect(findingsIn('sample.ts', sample)).toEqual([
      'sample.ts:1  .prepare(…)',
      'sample.ts:1  SELECT 1…',
      'sample.ts:2  UPDATE recordings SET upload_state…',
      'sample.ts:3  .pragma(…)',
    ]);
  });

  it('holds no statement anywhere in main/ outside main/db/', () => {
    const findings = outsideDb().flatMap((f) => findingsIn(f));
    expect(findings, `SQL outside main/db/ (move it into a repository):\n${findings.join('\n')}`).toEqual([]);
  });
});
