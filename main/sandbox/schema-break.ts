/**
 * Turns a successful answer into one that breaks the wire schema the client validates with, in one
 * of the scenario's modes. Each candidate mutation is checked against the very schema
 * (`WIRE[version]`, or `Ping`) and kept only if it really fails there: in v1.2 most fields are
 * optional, so removing one proves nothing, and 2^60 is a fine value for a `number (double)` field.
 */
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api/api-error';
import type { ApiVersion } from '../../shared/api/vocabulary';
import { Ping } from '../../shared/api/wire-common';
import { WIRE } from '../../shared/api/wire';
import type { SchemaBreakMode } from './scenario';

export interface BrokenAnswer {
  readonly mode: SchemaBreakMode;
  readonly body: string;
  readonly contentType: string;
}

export const schemaFor = (endpoint: Endpoint, version: ApiVersion): z.ZodType => {
  switch (endpoint) {
    case 'ping':
      return Ping;
    case 'createAccount':
      return WIRE[version].account;
    case 'upload':
      return WIRE[version].recording;
    case 'getAnalysis':
      return WIRE[version].analysis;
    case 'getUsage':
      return WIRE[version].usage;
  }
};

/** True when a client reading `text` as JSON and validating it with `schema` would fail. */
export const breaksSchema = (schema: z.ZodType, text: string): boolean => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return true;
  }
  return !schema.safeParse(parsed).success;
};

type Path = readonly (string | number)[];

/** Every path to a value inside `v` (object members and array items), depth first. */
const pathsOf = (v: unknown, prefix: Path = []): Path[] => {
  if (v === null || typeof v !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(v)
    ? v.map((x, i) => [i, x])
    : Object.entries(v);
  return entries.flatMap(([k, child]) => [[...prefix, k], ...pathsOf(child, [...prefix, k])]);
};

const valueAt = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>(
    (n, k) => (n !== null && typeof n === 'object' ? (n as Record<string | number, unknown>)[k] : undefined),
    root,
  );

/** A deep copy of `root` with the value at `path` replaced (`undefined`: removed). */
const withValue = (root: unknown, path: Path, value: unknown): unknown => {
  const copy = structuredClone(root);
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = value;
  return copy;
};

const MARK = '"__voicescope_sandbox_raw__"';
const MARK_VALUE = '__voicescope_sandbox_raw__';
const DEPTH = 400;
const DEEP_GARBAGE = `${'[{"g":'.repeat(DEPTH)}null${'}]'.repeat(DEPTH)}`;
const HTML =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>502 Bad Gateway</h1><p>The upstream server returned an invalid response.</p></body></html>\n';

const shuffled = <T>(xs: readonly T[], random: () => number): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

/** Candidate texts for one mode, in the order to try them. */
const candidates = (mode: SchemaBreakMode, body: unknown, random: () => number): string[] => {
  const paths = shuffled(pathsOf(body), random);
  const numeric = paths.filter((p) => typeof valueAt(body, p) === 'number');
  const raw = (p: Path, text: string) => JSON.stringify(withValue(body, p, MARK_VALUE)).replace(MARK, text);
  switch (mode) {
    case 'missing_field':
      return paths.map((p) => JSON.stringify(withValue(body, p, undefined)));
    case 'number_as_string':
      return numeric.map((p) => JSON.stringify(withValue(body, p, String(valueAt(body, p)))));
    case 'integer_overflow':
      return numeric.map((p) => raw(p, '1e400'));
    case 'integer_unsafe':
      return numeric.map((p) => raw(p, '1152921504606846976'));
    case 'truncated_json': {
      const text = JSON.stringify(body);
      return [text.slice(0, Math.max(1, Math.floor(text.length / 2)))];
    }
    case 'html_body':
      return [HTML];
    case 'unknown_status':
      return paths
        .filter((p) => p[p.length - 1] === 'status')
        .map((p) => JSON.stringify(withValue(body, p, 'queued')));
    case 'deep_garbage':
      return paths.map((p) => raw(p, DEEP_GARBAGE));
  }
};

/**
 * The first mode (in the given order) with a mutation that breaks `schema`, or null when none applies
 * (e.g. `unknown_status` on a usage answer).
 */
export const breakAnswer = (
  body: unknown,
  schema: z.ZodType,
  modes: readonly SchemaBreakMode[],
  random: () => number,
): BrokenAnswer | null => {
  for (const mode of modes) {
    for (const text of candidates(mode, body, random)) {
      if (breaksSchema(schema, text)) {
        return { mode, body: text, contentType: mode === 'html_body' ? 'text/html' : 'application/json' };
      }
    }
  }
  return null;
};
