/**
 * fast-check arbitraries for the property tests of the API client: valid response bodies generated
 * from the specification's shapes (wire-shapes.ts), and adversarial answers made from them: wrong
 * types at any member, huge and unsafe numbers, NaN-like strings, unknown enum values, deep nesting,
 * truncated JSON, extra and missing fields, other statuses and content types, empty, huge and
 * non-JSON bodies, broken connections.
 *
 * Each case says whether the answer is *certainly* unusable (the client must then refuse it whatever
 * its own schemas say) or whether that depends on the schema (a null where a member is optional, an
 * extra field, a number that may or may not be exact): then the test checks that an accepted answer
 * agrees with the body.
 */
import fc from 'fast-check';
import type { ApiVersion } from '../../shared/api/vocabulary';
import type { RawAnswer } from './raw-reply-server';
import { SHAPES, isRequiredAt, shapeAt, type Shape, type ShapeEndpoint } from './wire-shapes';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Client-side cap on answers in these tests (ClientOptions.maxResponseBytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

const datetime = fc
  .tuple(
    fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2099-12-31T23:59:59Z'),
      noInvalidDate: true,
    }),
    fc.constantFrom('Z', '+02:00', '-05:30', '+00:00'),
    fc.boolean(),
  )
  .map(([d, zone, millis]) => {
    const iso = d.toISOString(); // 2026-03-02T09:15:00.123Z
    return (millis ? iso.slice(0, -1) : iso.slice(0, 19)) + zone;
  });

const int = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.integer({ min: 0, max: 200_000 }),
  fc.maxSafeInteger(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
);
const double = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 0, max: 500, noNaN: true }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(Number.MAX_VALUE, Number.MIN_VALUE, -Number.MAX_VALUE, 0.1 + 0.2, 1e21, 1e-7),
);
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('NaN', 'Infinity', '', '0', 'null', 'low', 'high', '𝄞 ü', '\u0000'),
);

const leafArb = (s: Exclude<Shape, { t: 'object' }>): fc.Arbitrary<Json> => {
  switch (s.t) {
    case 'uuid':
      return fc.uuid();
    case 'datetime':
      return datetime;
    case 'int':
      return int;
    case 'double':
      return double;
    case 'score':
      return fc.integer({ min: 0, max: 100 });
    case 'string':
      return text;
    case 'bool':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...s.values);
  }
};

const ABSENT = Symbol('absent');
const extraKey = fc.string({ minLength: 1, maxLength: 8 }).map((k) => `x_${k}`);
const extras = fc.oneof(
  { arbitrary: fc.constant({}), weight: 5 },
  {
    arbitrary: fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxKeys: 2 }),
    weight: 1,
  },
);

/** A body the specification allows for this shape (optional members absent, null or present; extra fields sometimes). */
export const validBody = (shape: Shape): fc.Arbitrary<Json> => {
  if (shape.t !== 'object') return leafArb(shape);
  const model: Record<string, fc.Arbitrary<Json | typeof ABSENT>> = {};
  for (const [k, f] of Object.entries(shape.fields)) {
    const value = validBody(f.shape);
    model[k] = f.required
      ? value
      : fc.oneof(
          { arbitrary: value, weight: 4 },
          { arbitrary: fc.constant(ABSENT), weight: 1 },
          { arbitrary: fc.constant(null), weight: 1 },
        );
  }
  return fc.tuple(fc.record(model), extras).map(([o, x]) => {
    const out: Record<string, Json> = { ...x };
    for (const [k, v] of Object.entries(o)) if (v !== ABSENT) out[k] = v as Json;
    return out;
  });
};

type Path = readonly string[];

/** Every member path of a JSON value, through objects only. */
const memberPaths = (v: Json, prefix: Path = []): Path[] =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.entries(v).flatMap(([k, c]) => [[...prefix, k], ...memberPaths(c, [...prefix, k])])
    : [];

const objectPaths = (v: Json, prefix: Path = []): Path[] =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? [prefix, ...Object.entries(v).flatMap(([k, c]) => objectPaths(c, [...prefix, k]))]
    : [];

const getAt = (v: Json, p: Path): Json | undefined => {
  let node: Json | undefined = v;
  for (const k of p)
    node = node !== null && typeof node === 'object' && !Array.isArray(node) ? node[k] : undefined;
  return node;
};

const setAt = (root: Json, p: Path, value: Json | undefined): Json => {
  const copy = structuredClone(root);
  let node = copy as Record<string, Json>;
  for (const k of p.slice(0, -1)) node = node[k] as Record<string, Json>;
  const last = p[p.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
};

const RAW = '\u0001raw\u0001';
/** Serialises `body` with the member at `p` written as raw JSON text (numbers JSON.stringify cannot write, deep nesting). */
const withRaw = (body: Json, p: Path, raw: string): string =>
  JSON.stringify(setAt(body, p, RAW)).replace(JSON.stringify(RAW), raw);

const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length]!;

/** Whether `v` is of the JSON type the shape expects (then replacing a member with it is no type error). */
const sameJsonType = (s: Shape, v: Json): boolean => {
  switch (s.t) {
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'int':
    case 'double':
    case 'score':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case 'uuid':
    case 'datetime':
    case 'string':
    case 'enum':
      return typeof v === 'string';
  }
};

/** `simulation` is read leniently on purpose (a broken mark is dropped, never a reason to refuse the data). */
const isLenient = (p: Path) => p[0] === 'simulation';

export interface WireCase {
  /** What was done to the answer, for the run statistics. */
  readonly label: string;
  readonly answer: RawAnswer;
  /** The body text of a 2xx answer, else null. */
  readonly text: string | null;
  /** The answer is unusable whatever the client's schemas say: no value may come of it. */
  readonly certainlyInvalid: boolean;
  /** X-Voicescope-Simulated: 1 was sent. */
  readonly simulatedHeader: boolean;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/html',
  'text/plain',
  'application/octet-stream',
  null,
] as const;

interface Mutated {
  readonly label: string;
  readonly text: string;
  readonly certainlyInvalid: boolean;
}

const NUMERIC_RAW: readonly { raw: string; invalid: boolean }[] = [
  { raw: '1e400', invalid: true },
  { raw: '-1e400', invalid: true },
  { raw: '9007199254740993', invalid: false },
  { raw: '-9007199254740993', invalid: false },
  { raw: '123456789012345678901234567890', invalid: false },
  { raw: '1.5', invalid: false },
  { raw: '1.7976931348623157e308', invalid: false },
  { raw: '5e-324', invalid: false },
  { raw: '-0', invalid: false },
  { raw: '1E2', invalid: false },
  { raw: '0.1e-400', invalid: false },
];
const NAN_LIKE = ['NaN', 'Infinity', '-Infinity', '1e999', '0x10', '', ' 12', '12abc', 'null', '1,5'];

/** A mutation of a valid body, or the body as it is. `n` numbers pick paths and variants. */
const mutate = (shape: Shape, body: Json, kind: string, n: readonly number[]): Mutated => {
  const members = memberPaths(body);
  const known = members.filter((p) => shapeAt(shape, p) !== null && !isLenient(p));
  const leaves = known.filter((p) => shapeAt(shape, p)!.t !== 'object');
  const numeric = leaves.filter((p) => typeof getAt(body, p) === 'number');
  const enums = leaves.filter((p) => shapeAt(shape, p)!.t === 'enum' && typeof getAt(body, p) === 'string');
  const plain = JSON.stringify(body);
  const [a = 0, b = 0, c = 0] = n;
  switch (kind) {
    case 'wrong_type': {
      if (known.length === 0) break;
      const p = pick(known, a);
      const others = [17, 2.5, 'seventeen', true, [1, 2], { nested: { value: 1 } }].filter(
        (x) => !sameJsonType(shapeAt(shape, p)!, x),
      );
      return { label: kind, text: JSON.stringify(setAt(body, p, pick(others, b))), certainlyInvalid: true };
    }
    case 'null_member': {
      if (members.length === 0) break;
      const p = pick(members, a);
      const required = isRequiredAt(shape, p) && !isLenient(p);
      return { label: kind, text: JSON.stringify(setAt(body, p, null)), certainlyInvalid: required };
    }
    case 'missing_member': {
      if (members.length === 0) break;
      const p = pick(members, a);
      const required = isRequiredAt(shape, p) && !isLenient(p);
      return { label: kind, text: JSON.stringify(setAt(body, p, undefined)), certainlyInvalid: required };
    }
    case 'odd_number': {
      if (numeric.length === 0) break;
      const v = pick(NUMERIC_RAW, b);
      return { label: kind, text: withRaw(body, pick(numeric, a), v.raw), certainlyInvalid: v.invalid };
    }
    case 'nan_string': {
      if (numeric.length === 0) break;
      return {
        label: kind,
        text: JSON.stringify(setAt(body, pick(numeric, a), pick(NAN_LIKE, b))),
        certainlyInvalid: true,
      };
    }
    case 'unknown_enum': {
      if (enums.length === 0) break;
      const p = pick(enums, a);
      const allowed = (shapeAt(shape, p) as { values: readonly string[] }).values;
      const candidates = [
        'unknown',
        'COMPLETED',
        'completed ',
        'Low',
        '',
        'pending',
        'finished',
        'speaker2',
      ].filter((x) => !allowed.includes(x));
      return {
        label: kind,
        text: JSON.stringify(setAt(body, p, pick(candidates, b))),
        certainlyInvalid: true,
      };
    }
    case 'deep_nesting': {
      const depth = 100 + (b % 40_000);
      const arrays = '['.repeat(depth) + ']'.repeat(depth);
      const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      if (known.length > 0 && a % 3 !== 0) {
        // Nested objects of unknown members are a valid object (its members optional, the unknown dropped): arrays are not.
        const p = pick(known, a);
        const raw = shapeAt(shape, p)!.t === 'object' || c % 2 === 0 ? arrays : objects;
        return { label: kind, text: withRaw(body, p, raw), certainlyInvalid: true };
      }
      const raw = c % 2 === 0 ? arrays : objects;
      // As an extra member, deep nesting is harmless data the client drops.
      const at = pick(objectPaths(body), a);
      return { label: `${kind}_extra`, text: withRaw(body, [...at, 'x_deep'], raw), certainlyInvalid: false };
    }
    case 'extra_members': {
      const at = pick(objectPaths(body), a);
      const extra: Json = pick<Json>(
        // eslint-disable-next-line no-loss-of-precision -- beyond double precision, as a loose service may send
        [{ unexpected: [1, 'two', null] }, 'surprise', 12345678901234567890, null, { status: 'error' }],
        b,
      );
      return {
        label: kind,
        text: JSON.stringify(setAt(body, [...at, `x_new${c % 5}`], extra)),
        certainlyInvalid: false,
      };
    }
    case 'truncated': {
      return { label: kind, text: plain.slice(0, a % plain.length), certainlyInvalid: true };
    }
    case 'top_level': {
      return {
        label: kind,
        text: pick(['[]', '[' + plain + ']', '42', '"ok"', 'null', 'true', JSON.stringify(plain)], a),
        certainlyInvalid: true,
      };
    }
    case 'not_json': {
      const pages = [
        '',
        ' ',
        '<html><body>Sign in to the hotel Wi-Fi</body></html>',
        'Bad Gateway',
        '\uFFFD\uFFFD',
        `x${plain}`,
        `${plain}}`,
        `${plain},`,
      ];
      return { label: kind, text: pick(pages, a), certainlyInvalid: true };
    }
    case 'huge': {
      const over = c % 2 === 0;
      const room = MAX_RESPONSE_BYTES - Buffer.byteLength(plain) - 40;
      if (!over && room <= 0) break;
      const size = over ? MAX_RESPONSE_BYTES + (b % 200_000) : room - (b % Math.max(1, room));
      const at = objectPaths(body)[0]!;
      return {
        label: over ? 'huge' : 'near_cap',
        text: JSON.stringify(setAt(body, [...at, 'x_pad'], 'p'.repeat(Math.max(0, size)))),
        certainlyInvalid: over,
      };
    }
    case 'bom': {
      return { label: kind, text: `\uFEFF${plain}`, certainlyInvalid: false };
    }
  }
  return { label: 'valid', text: plain, certainlyInvalid: false };
};

const MUTATIONS = [
  'valid',
  'valid',
  'valid',
  'wrong_type',
  'null_member',
  'missing_member',
  'odd_number',
  'nan_string',
  'unknown_enum',
  'deep_nesting',
  'extra_members',
  'truncated',
  'top_level',
  'not_json',
  'huge',
  'bom',
] as const;

const NAMED_TYPES = [
  'Unauthorized',
  'Suspended',
  'ApiNotProvisioned',
  'AnalysisNotEnabled',
  'UploadLimitExceeded',
  'SpeakerSpeechTooShort',
  'RecordingTooLongForIsolation',
  'InternalError',
  'RateLimitExceeded',
  'NotFound',
  'SomethingNew',
];

const errorBody = fc.oneof(
  fc
    .record({ error: fc.record({ type: fc.constantFrom(...NAMED_TYPES), message: text }) })
    .map((x) => JSON.stringify(x)),
  fc.constantFrom(
    '',
    '<html>502 Bad Gateway</html>',
    '{"error":null}',
    '{"error":{"type":17}}',
    '{"error":',
    '[]',
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);
/** Retry-After values, sane and not. (A value too large for a double is a known defect, tested on its own.) */
const retryAfter = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 90 }).map(String),
  fc.constantFrom(
    '-1',
    '1.5',
    'soon',
    '',
    '999999999999999999999',
    'Wed, 21 Oct 2015 07:28:00 GMT',
    'Fri, 31 Dec 9999 23:59:59 GMT',
  ),
);

const header = (contentType: string | null, simulated: boolean): Record<string, string> => ({
  ...(contentType ? { 'Content-Type': contentType } : {}),
  ...(simulated ? { 'X-Voicescope-Simulated': '1' } : {}),
});

/**
 * Any answer to a call of `endpoint`: mostly 2xx bodies made from a valid one, also other statuses and
 * broken connections. `adjust` may change the valid body first (say, to answer about the recording asked for).
 */
export const adversarialAnswer = (
  version: ApiVersion,
  endpoint: ShapeEndpoint,
  adjust?: (body: Json, n: number) => Json,
): fc.Arbitrary<WireCase> => {
  const shape = SHAPES[version][endpoint];
  const body = adjust ? fc.tuple(validBody(shape), fc.nat()).map(([b, n]) => adjust(b, n)) : validBody(shape);
  const success = fc
    .record({
      body,
      kind: fc.constantFrom(...MUTATIONS),
      n: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
      status: fc.constantFrom(200, 200, 200, 200, 201, 203),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      simulated: fc.boolean(),
    })
    .map(({ body, kind, n, status, contentType, simulated }): WireCase => {
      const m = mutate(shape, body, kind, n);
      return {
        label: m.label,
        text: m.text,
        certainlyInvalid: m.certainlyInvalid,
        simulatedHeader: simulated,
        answer: { kind: 'reply', status, headers: header(contentType, simulated), body: m.text },
      };
    });
  const refusal = fc
    .record({
      status: fc.oneof(
        fc.constantFrom(400, 401, 403, 404, 408, 413, 429, 500, 502, 503, 504),
        fc.integer({ min: 300, max: 599 }),
      ),
      body: fc.oneof(
        errorBody,
        validBody(shape).map((b) => JSON.stringify(b)),
      ),
      retryAfter,
    })
    .filter(({ status }) => status !== 304)
    .map(({ status, body, retryAfter: ra }): WireCase => ({
      label: `status_${Math.floor(status / 100)}xx`,
      text: null,
      certainlyInvalid: true,
      simulatedHeader: false,
      answer: {
        kind: 'reply',
        status,
        headers: { 'Content-Type': 'application/json', ...(ra !== null ? { 'Retry-After': ra } : {}) },
        body,
      },
    }));
  const noContent: fc.Arbitrary<WireCase> = fc.constant({
    label: 'no_content',
    text: '',
    certainlyInvalid: true,
    simulatedHeader: false,
    answer: { kind: 'reply', status: 204, headers: {}, body: '' },
  });
  const broken = fc.oneof(
    fc.constant<WireCase>({
      label: 'dropped',
      text: null,
      certainlyInvalid: true,
      simulatedHeader: false,
      answer: { kind: 'drop' },
    }),
    fc.tuple(validBody(shape), fc.nat()).map(([b, k]): WireCase => {
      const body = JSON.stringify(b);
      return {
        label: 'cut_mid_body',
        text: null,
        certainlyInvalid: true,
        simulatedHeader: false,
        answer: { kind: 'cut', status: 200, body, bytes: k % body.length },
      };
    }),
  );
  return fc.oneof(
    { arbitrary: success, weight: 12 },
    { arbitrary: refusal, weight: 3 },
    { arbitrary: noContent, weight: 1 },
    { arbitrary: broken, weight: 1 },
  );
};
