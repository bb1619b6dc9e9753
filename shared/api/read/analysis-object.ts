/**
 * One analysis object (`analysis.wellbeing`, ...), read on its own: its status, each measure the
 * catalogue places in it, and every member the specification does not describe. Nothing in it can make
 * another analysis type, or the metadata, unreadable.
 */
import { dqFlag, jsonText, type DataQualityFlag } from '../data-quality';
import type { AnalysisOutcome, MeasureValue } from '../domain';
import { MEASURES, type MeasureDef } from '../measures';
import { ANALYSIS_STATUSES, type AnalysisStatus, type AnalysisType, type ApiVersion } from '../vocabulary';
import { isAbsent, isObj, join, type Obj } from './fields';
import { readMeasureValue } from './measure-value';

/**
 * v1.3 members the specification marks required once their enclosing object is present: the measure key
 * and how many path segments of the measure's path make that enclosing object. (v1.2 requires none.)
 */
const REQUIRED_V13: Readonly<Record<string, number>> = {
  wb_stress: 2,
  wb_anxiety: 2,
  wb_depression: 2,
  ad_cognition: 2,
  cc_word_rate: 1,
  cc_fragment_rate: 1,
  cc_filler_words_rate: 1,
  cc_rhythm: 1,
  cc_clarity: 1,
  cc_positiveness: 1,
  cc_speaking_rate: 1,
};

/** Allowed distance of hc + mci + ad from 1 (three values rounded to two decimals can be 0.015 off). */
export const PROBABILITY_SUM_TOLERANCE = 0.02;
const PROBABILITY_KEYS = ['ad_p_hc', 'ad_p_mci', 'ad_p_ad'] as const;

export const requiredDepth = (version: ApiVersion, key: string): number | undefined =>
  version === 'v1.3' ? REQUIRED_V13[key] : undefined;

const measuresAt = (version: ApiVersion, type: AnalysisType) =>
  MEASURES.filter((m): m is MeasureDef & { path: Record<ApiVersion, readonly string[]> } => {
    return m.analysis === type && m.path[version] !== undefined;
  });

/** Every member path the specification describes inside this type's object: `status`, each measure path and its prefixes. */
const knownPaths = (version: ApiVersion, type: AnalysisType): { leaves: Set<string>; inner: Set<string> } => {
  const leaves = new Set<string>(['status']);
  const inner = new Set<string>();
  for (const m of measuresAt(version, type)) {
    const p = m.path[version];
    leaves.add(p.join('.'));
    for (let i = 1; i < p.length; i++) inner.add(p.slice(0, i).join('.'));
  }
  return { leaves, inner };
};

const walkUnknown = (
  flags: DataQualityFlag[],
  base: string,
  node: Obj,
  rel: string,
  known: { leaves: Set<string>; inner: Set<string> },
) => {
  for (const [k, v] of Object.entries(node)) {
    const r = rel ? `${rel}.${k}` : k;
    if (known.leaves.has(r)) continue;
    if (known.inner.has(r)) {
      if (isObj(v)) walkUnknown(flags, base, v, r, known);
      else if (!isAbsent(v)) flags.push(dqFlag('object_expected', join(base, r), v, 'an object'));
      continue;
    }
    flags.push(dqFlag('unknown_field', join(base, r), v, 'no such member'));
  }
};

const readStatus = (
  flags: DataQualityFlag[],
  base: string,
  v: unknown,
): { status: AnalysisStatus; received: string | null } => {
  const path = join(base, 'status');
  const expected = `one of ${ANALYSIS_STATUSES.join(', ')}`;
  if (isAbsent(v)) {
    flags.push(dqFlag('required_missing', path, undefined, expected));
    return { status: 'processing', received: null };
  }
  if (typeof v === 'string') {
    const exact = ANALYSIS_STATUSES.find((s) => s === v);
    if (exact) return { status: exact, received: v };
    const same = ANALYSIS_STATUSES.find((s) => s === v.toLowerCase());
    if (same) {
      flags.push(dqFlag('status_case_normalised', path, v, expected));
      return { status: same, received: v };
    }
  }
  flags.push(dqFlag('status_not_in_enum', path, v, expected));
  return { status: 'processing', received: typeof v === 'string' ? v : jsonText(v) };
};

/** Where the value at `path` stands: an object chain broken by a non-object is `blocked` (flagged by the walk). */
const resolve = (
  root: Obj,
  path: readonly string[],
): { kind: 'value'; value: unknown } | { kind: 'blocked' } | { kind: 'absent'; depth: number } => {
  let node: unknown = root;
  for (let i = 0; i < path.length; i++) {
    if (isAbsent(node)) return { kind: 'absent', depth: i - 1 };
    if (!isObj(node)) return { kind: 'blocked' };
    node = node[path[i]!];
  }
  return isAbsent(node) ? { kind: 'absent', depth: path.length - 1 } : { kind: 'value', value: node };
};

export const readAnalysisObject = (version: ApiVersion, type: AnalysisType, obj: Obj): AnalysisOutcome => {
  const base = `analysis.${type}`;
  const flags: DataQualityFlag[] = [];
  const { status, received } = readStatus(flags, base, obj['status']);
  walkUnknown(flags, base, obj, '', knownPaths(version, type));

  const values: Record<string, MeasureValue> = {};
  for (const m of measuresAt(version, type)) {
    const p = m.path[version];
    const path = join(base, p.join('.'));
    const at = resolve(obj, p);
    if (at.kind === 'value') values[m.key] = readMeasureValue(m, path, at.value, flags);
    else if (at.kind === 'absent') {
      // Required once its enclosing object is present: that object is at depth `req - 1` of the path.
      const req = requiredDepth(version, m.key);
      if (req !== undefined && at.depth >= req)
        flags.push(dqFlag('required_missing', path, undefined, 'present', [m.key]));
    }
  }

  if (type === 'alzheimers') {
    const ps = PROBABILITY_KEYS.map((k) => values[k]);
    if (ps.every((p): p is number => typeof p === 'number')) {
      const sum = ps.reduce((a, b) => a + b, 0);
      if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE) {
        const where = version === 'v1.3' ? 'insights.cognition.scores' : 'predictions';
        flags.push(
          dqFlag(
            'probabilities_do_not_sum_to_1',
            join(base, where),
            sum,
            `hc + mci + ad = 1 (±${PROBABILITY_SUM_TOLERANCE})`,
            PROBABILITY_KEYS,
          ),
        );
      }
    }
  }

  const keys = Object.keys(values);
  if (status !== 'completed' && keys.length > 0)
    flags.push(dqFlag('values_while_processing', base, received, 'no values before completed', keys));

  return { type, status, values, receivedStatus: received, flags, raw: jsonText(obj) };
};
