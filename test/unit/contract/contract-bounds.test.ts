/**
 * Every request has bounds (shared/contract/bounds.ts). This walks the input of every
 * procedure of the contract, as JSON Schema, and holds each part to the rules:
 *   - every object refuses fields it does not declare;
 *   - every array has a maximum size;
 *   - every number has a minimum and a maximum;
 *   - every string is a fixed vocabulary, a fixed shape (a UUID, a date), or has a maximum length and
 *     refuses NUL; codes, names, labels and every other text that is not a file path also refuse control
 *     characters and the marks that reverse the direction of text.
 * A new procedure without bounds fails here, naming the field.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { procedures, type Method } from '../../../shared/contract';
import { hasControlCharacters } from '../../../shared/contract/bounds';

/** Fields that hold file-system paths: any character but NUL is a legal file name somewhere. */
const PATH_FIELDS = new Set([
  'paths',
  'manifestPath',
  'destination',
  'outDir',
  'path',
  'insistOnDuplicates',
  'sendBorderline',
]);

interface Node {
  type?: string | string[];
  properties?: Record<string, Node>;
  additionalProperties?: boolean | Node;
  items?: Node;
  prefixItems?: Node[];
  anyOf?: Node[];
  oneOf?: Node[];
  allOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
}

/** What is wrong with one input schema: "field: problem" lines. */
const problemsOf = (schema: z.ZodType): string[] => {
  const root = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Node;
  const out: string[] = [];
  const walk = (n: Node, at: string, field: string) => {
    for (const alt of [...(n.anyOf ?? []), ...(n.oneOf ?? []), ...(n.allOf ?? [])]) walk(alt, at, field);
    if (n.enum !== undefined || n.const !== undefined) return;
    const types = Array.isArray(n.type) ? n.type : n.type ? [n.type] : [];
    if (types.length === 0 && !n.anyOf && !n.oneOf && !n.allOf) out.push(`${at}: accepts anything`);
    for (const t of types) {
      if (t === 'object') {
        if (n.additionalProperties !== false) out.push(`${at}: accepts fields it does not declare`);
        for (const [k, v] of Object.entries(n.properties ?? {})) walk(v, at ? `${at}.${k}` : k, k);
      } else if (t === 'array') {
        if (n.maxItems === undefined) out.push(`${at}: no maximum size`);
        if (n.items) walk(n.items, `${at}[]`, field);
        for (const p of n.prefixItems ?? []) walk(p, `${at}[]`, field);
      } else if (t === 'number' || t === 'integer') {
        if (n.minimum === undefined && n.exclusiveMinimum === undefined) out.push(`${at}: no minimum`);
        if (n.maximum === undefined && n.exclusiveMaximum === undefined) out.push(`${at}: no maximum`);
      } else if (t === 'string') {
        if (n.format !== undefined && n.pattern !== undefined) continue; // a fixed shape (UUID, date)
        if (n.maxLength === undefined) out.push(`${at}: no maximum length`);
        const pattern = n.pattern === undefined ? null : new RegExp(n.pattern);
        if (pattern === null || pattern.test('a\u0000b')) out.push(`${at}: accepts NUL`);
        else if (!PATH_FIELDS.has(field))
          for (const [name, c] of [
            ['a control character', '\u0007'],
            ['a C1 control character', '\u0085'],
            ['a right-to-left override', '\u202e'],
            ['a direction isolate', '\u2067'],
          ] as const)
            if (pattern.test(`P${c}01`)) out.push(`${at}: accepts ${name}`);
      }
    }
  };
  walk(root, '', '');
  return out;
};

const methods = Object.keys(procedures) as Method[];

describe('every request has bounds', () => {
  it('walks every procedure of the contract', () => {
    expect(methods.length).toBeGreaterThan(50);
  });

  it.each(methods)('%s: every object strict, every string, array and number bounded', (method) => {
    expect(problemsOf(procedures[method].input)).toEqual([]);
  });

  it.each(methods)('%s: a field it does not declare is refused and named', (method) => {
    const r = procedures[method].input.safeParse({ notAField: 1 });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toContainEqual(
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['notAField'] }),
    );
  });

  it('the walk itself notices what it looks for', () => {
    expect(
      problemsOf(
        z.object({
          a: z.string(),
          b: z.array(z.int().min(0)),
          c: z.number().max(3),
          d: z.strictObject({
            e: z
              .string()
              .max(3)
              .regex(/^[^\u0000]*$/),
          }),
        }),
      ),
    ).toEqual([
      ': accepts fields it does not declare',
      'a: no maximum length',
      'a: accepts NUL',
      'b: no maximum size',
      'c: no minimum',
      'd.e: accepts a control character',
      'd.e: accepts a C1 control character',
      'd.e: accepts a right-to-left override',
      'd.e: accepts a direction isolate',
    ]);
  });
});

describe('control characters in codes, names and labels', () => {
  const bad = [
    'P\u000001',
    'P\u000701',
    'P\u008501',
    'P\u202e10',
    'P\u2066x\u2069',
    'P\u200b01',
    'P\ufeff01',
  ];

  it.each(bad.map((s) => [JSON.stringify(s), s]))('%s is refused as a code, a name and a label', (_, s) => {
    expect(hasControlCharacters(s)).toBe(true);
    expect(procedures['participants.create'].input.safeParse({ studyId: 1, code: s }).success).toBe(false);
    expect(
      procedures['studies.create'].input.safeParse({ name: s, profileId: 1, sessionIntervalDays: 7 }).success,
    ).toBe(false);
    expect(
      procedures['imports.commit'].input.safeParse({ planId: 'p', insistOnDuplicates: [], label: s }).success,
    ).toBe(false);
  });

  it('ordinary text in any script is accepted', () => {
    for (const s of ['P01', 'Müller-Lüdenscheidt', 'مشارك ٣', '参加者-7', 'O’Brien (pilot)'])
      expect(procedures['participants.create'].input.safeParse({ studyId: 1, code: s }).success).toBe(true);
  });

  it('notes keep their line breaks and tabs', () => {
    const input = { participantId: 1, notes: 'first visit\n\tcalm\r\nsecond' };
    expect(procedures['participants.setNotes'].input.safeParse(input).success).toBe(true);
    expect(procedures['participants.setNotes'].input.safeParse({ ...input, notes: 'a\u0000' }).success).toBe(
      false,
    );
  });
});
