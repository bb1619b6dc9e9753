/**
 * Analysis answers from a LOOSE version of the wire schemas: every enumeration a free string,
 * numbers unbounded, members dropped or null, objects replaced by other values, extra members and
 * unknown analysis types. Each generated answer carries what the generator broke, and so what a tolerant
 * reader must report: the flags (code and path), the values it must keep, the status it must act on.
 * The expectations are written from the generator's own choices, not by re-running the reader's checks.
 */
import fc from 'fast-check';
import { MEASURES, type MeasureDef } from '../../shared/api/measures';
import {
  ANALYSIS_STATUSES,
  analysisTypesFor,
  type AnalysisStatus,
  type AnalysisType,
  type ApiVersion,
} from '../../shared/api/vocabulary';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface LooseExpectation {
  /** `code@path`, one per flag the reader must raise. */
  readonly flags: string[];
  readonly outcomes: Map<AnalysisType, { status: AnalysisStatus; values: Map<string, number | string> }>;
  readonly unlisted: string[];
  readonly metadata: Record<string, Json>;
}

export interface LooseAnswer {
  readonly body: Record<string, Json>;
  readonly expect: LooseExpectation;
}

/** v1.3 members required once their enclosing object (of this many path segments) is present. */
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

const UUID = fc.uuid();
const DATETIME = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
const EXTRA: fc.Arbitrary<Json> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);
/** A free string that is no allowed value in any letter case. */
const freeString = (allowed: readonly string[]) =>
  fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((s) => !allowed.some((a) => a.toLowerCase() === s.toLowerCase()));
/** An allowed value in another letter case (always differs: all allowed values are lower-case letters). */
const otherCase = (allowed: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...allowed), fc.boolean())
    .map(([a, all]) => (all ? a.toUpperCase() : a[0]!.toUpperCase() + a.slice(1)));

const range = (m: MeasureDef) => m.range ?? m.assumedRange;

type Leaf = { value: Json | undefined; flag: string | null; kept: number | string | undefined };

/** One measure value: well-formed, or broken in one known way, with the flag the break must raise. */
const leafArb = (m: MeasureDef): fc.Arbitrary<Leaf> => {
  const none: fc.Arbitrary<Leaf> = fc.constantFrom<Leaf>(
    { value: undefined, flag: null, kept: undefined },
    { value: null, flag: null, kept: undefined },
  );
  const bool = fc.boolean().map((b): Leaf => ({
    value: b,
    flag: m.valueType === 'category' ? 'text_expected' : 'number_expected',
    kept: String(b),
  }));
  if (m.valueType === 'category') {
    const options: fc.Arbitrary<Leaf>[] = [
      none,
      bool,
      fc.integer().map((n): Leaf => ({ value: n, flag: 'text_expected', kept: n })),
    ];
    if (m.allowed) {
      const allowed = m.allowed;
      options.push(
        fc.constantFrom(...allowed).map((a): Leaf => ({ value: a, flag: null, kept: a })),
        otherCase(allowed).map((s): Leaf => ({
          value: s,
          flag: 'rating_case_normalised',
          kept: allowed.find((a) => a === s.toLowerCase())!,
        })),
        freeString(allowed).map((s): Leaf => ({ value: s, flag: 'rating_not_in_enum', kept: s })),
      );
    } else options.push(fc.string({ maxLength: 8 }).map((s): Leaf => ({ value: s, flag: null, kept: s })));
    return fc.oneof(...options);
  }
  const r = range(m);
  const integer = m.valueType === 'integer';
  const lo = r ? r[0] : m.nonNegative ? 0 : -1000;
  const hi = r ? r[1] : 100_000;
  const good = integer
    ? fc.integer({ min: lo, max: hi })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  const outCode = r ? (m.kind === 'probability' ? 'probability_out_of_range' : 'score_out_of_range') : null;
  const options: fc.Arbitrary<Leaf>[] = [
    none,
    bool,
    good.map((v): Leaf => ({ value: v, flag: null, kept: v })),
    fc.string({ maxLength: 6 }).map((s): Leaf => ({ value: s, flag: 'number_expected', kept: s })),
  ];
  if (integer)
    options.push(
      fc
        .integer({ min: Math.ceil(lo), max: Math.floor(hi) - 1 })
        .map((n): Leaf => ({ value: n + 0.5, flag: 'integer_expected', kept: n + 0.5 })),
    );
  if (outCode)
    options.push(
      fc
        .tuple(
          fc.boolean(),
          integer ? fc.integer({ min: 1, max: 1e6 }) : fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        )
        .map(([below, d]): Leaf => {
          const v = below ? r![0] - d : r![1] + d;
          return { value: v, flag: outCode, kept: v };
        }),
    );
  else if (m.nonNegative)
    options.push(
      (integer ? fc.integer({ min: 1, max: 1e6 }) : fc.double({ min: 1e-3, max: 1e6, noNaN: true })).map(
        (d): Leaf => ({ value: -d, flag: 'negative_value', kept: -d }),
      ),
    );
  return fc.oneof(...options);
};

type Tree = { [k: string]: Tree | MeasureDef };
const isMeasure = (t: Tree | MeasureDef): t is MeasureDef => typeof (t as MeasureDef).key === 'string';

const treeOf = (version: ApiVersion, type: AnalysisType): Tree => {
  const root: Tree = {};
  for (const m of MEASURES) {
    const p = m.path[version];
    if (m.analysis !== type || !p) continue;
    let node = root;
    for (const k of p.slice(0, -1)) node = (node[k] ??= {}) as Tree;
    node[p[p.length - 1]!] = m;
  }
  return root;
};

const leavesUnder = (t: Tree): MeasureDef[] =>
  Object.values(t).flatMap((c) => (isMeasure(c) ? [c] : leavesUnder(c)));

type Built = { value: Json; flags: string[]; values: Map<string, number | string> };

/** An object built from a subtree of the catalogue; `depth` is how many path segments lead to it. */
const objectArb = (version: ApiVersion, tree: Tree, base: string, depth: number): fc.Arbitrary<Built> => {
  const keys = Object.keys(tree);
  const members = keys.map((k) => {
    const child = tree[k]!;
    const path = `${base}.${k}`;
    if (isMeasure(child))
      return leafArb(child).map((l) => {
        const flags: string[] = [];
        const values = new Map<string, number | string>();
        if (l.flag) flags.push(`${l.flag}@${path}`);
        if (l.kept !== undefined) values.set(child.key, l.kept);
        else if (version === 'v1.3' && (REQUIRED_V13[child.key] ?? Infinity) <= depth)
          flags.push(`required_missing@${path}`);
        return { value: l.value, flags, values };
      });
    const required = (present: number) =>
      version === 'v1.3'
        ? leavesUnder(child)
            .filter((m) => (REQUIRED_V13[m.key] ?? Infinity) <= present)
            .map(
              (m) =>
                `required_missing@${base.split('.').slice(0, 2).join('.')}.${m.path[version]!.join('.')}`,
            )
        : [];
    return fc.oneof(
      { weight: 6, arbitrary: objectArb(version, child, path, depth + 1) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(undefined, null).map((v) => ({
          value: v as Json,
          flags: required(depth),
          values: new Map<string, number | string>(),
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.array(fc.integer(), { maxLength: 2 }))
          .map((v) => ({
            value: v as Json,
            flags: [`object_expected@${path}`],
            values: new Map<string, number | string>(),
          })),
      },
    );
  });
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 5 }).map((s) => `zz_${s}`),
    EXTRA,
    { maxKeys: 1 },
  );
  return fc.tuple(fc.tuple(...members), extras).map(([built, extra]) => {
    const value: Record<string, Json> = {};
    const flags: string[] = [];
    const values = new Map<string, number | string>();
    built.forEach((b, i) => {
      if (b.value !== undefined) value[keys[i]!] = b.value;
      flags.push(...b.flags);
      for (const [k, v] of b.values) values.set(k, v);
    });
    for (const [k, v] of Object.entries(extra)) {
      value[k] = v;
      flags.push(`unknown_field@${base}.${k}`);
    }
    return { value, flags, values };
  });
};

const statusArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(...ANALYSIS_STATUSES)
      .map((s) => ({ sent: s as Json, status: s, flag: null as string | null })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...ANALYSIS_STATUSES).map((s) => ({
      sent: s.toUpperCase() as Json,
      status: s as AnalysisStatus,
      flag: 'status_case_normalised' as string | null,
    })),
  },
  {
    weight: 1,
    arbitrary: freeString(ANALYSIS_STATUSES).map((s) => ({
      sent: s as Json,
      status: 'processing' as AnalysisStatus,
      flag: 'status_not_in_enum' as string | null,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(undefined, null, 3).map((s) => ({
      sent: s as Json,
      status: 'processing' as AnalysisStatus,
      flag: (s === 3 ? 'status_not_in_enum' : 'required_missing') as string | null,
    })),
  },
);

const analysisObjectArb = (version: ApiVersion, type: AnalysisType) =>
  fc.tuple(statusArb, objectArb(version, treeOf(version, type), `analysis.${type}`, 0)).map(([st, obj]) => {
    const base = `analysis.${type}`;
    const value = { ...(obj.value as Record<string, Json>) };
    if (st.sent !== undefined) value['status'] = st.sent;
    const flags = [...obj.flags];
    if (st.flag) flags.push(`${st.flag}@${base}.status`);
    if (type === 'alzheimers') {
      const ps = ['ad_p_hc', 'ad_p_mci', 'ad_p_ad'].map((k) => obj.values.get(k));
      if (ps.every((p) => typeof p === 'number')) {
        const sum = (ps as number[]).reduce((a, b) => a + b, 0);
        if (Math.abs(sum - 1) > 0.02)
          flags.push(
            `probabilities_do_not_sum_to_1@${base}.${version === 'v1.3' ? 'insights.cognition.scores' : 'predictions'}`,
          );
      }
    }
    if (st.status !== 'completed' && obj.values.size > 0) flags.push(`values_while_processing@${base}`);
    return { value: value as Json, flags, status: st.status, values: obj.values };
  });

type MdLeaf = { sent: Json | undefined; flag: string | null; kept: Json };
const mdText = (
  good: fc.Arbitrary<string>,
  badCode: string | null,
  required: boolean,
): fc.Arbitrary<MdLeaf> =>
  fc.oneof(
    { weight: 5, arbitrary: good.map((s): MdLeaf => ({ sent: s, flag: null, kept: s })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(undefined, null).map((v): MdLeaf => ({
        sent: v,
        flag: required ? 'required_missing' : null,
        kept: null,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.integer().map((n): MdLeaf => ({ sent: n, flag: 'text_expected', kept: null })),
    },
    ...(badCode
      ? [
          {
            weight: 1,
            arbitrary: fc
              .constantFrom('yesterday', 'abc', '12', '2026-13-45')
              .map((s): MdLeaf => ({ sent: s, flag: badCode, kept: s })),
          },
        ]
      : []),
  );
const mdNumber = (integer: boolean, required: boolean): fc.Arbitrary<MdLeaf> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: (integer
        ? fc.integer({ min: 0, max: 1e9 })
        : fc.double({ min: 0, max: 1e4, noNaN: true })
      ).map((v): MdLeaf => ({ sent: v, flag: null, kept: v })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(undefined, null).map((v): MdLeaf => ({
        sent: v,
        flag: required ? 'required_missing' : null,
        kept: null,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 5 })
        .map((s): MdLeaf => ({ sent: s, flag: 'number_expected', kept: null })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: 1e6 })
        .map((n): MdLeaf => ({ sent: -n, flag: 'negative_value', kept: -n })),
    },
    ...(integer
      ? [
          {
            weight: 1,
            arbitrary: fc
              .integer({ min: 0, max: 1e6 })
              .map((n): MdLeaf => ({ sent: n + 0.25, flag: 'integer_expected', kept: n + 0.25 })),
          },
          {
            weight: 1,
            arbitrary: fc.constant<MdLeaf>({ sent: 2 ** 60, flag: 'integer_too_large', kept: 2 ** 60 }),
          },
        ]
      : []),
  );

export const looseAnalysisAnswer = (version: ApiVersion, polledId: string): fc.Arbitrary<LooseAnswer> => {
  const types = analysisTypesFor(version);
  const md = fc.record({
    recording_id: fc.oneof(
      {
        weight: 8,
        arbitrary: fc.constantFrom<MdLeaf>(
          { sent: polledId, flag: null, kept: polledId },
          { sent: polledId.toUpperCase(), flag: null, kept: polledId.toUpperCase() },
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom<MdLeaf>(
          { sent: undefined, flag: 'required_missing', kept: polledId },
          { sent: null, flag: 'required_missing', kept: polledId },
        ),
      },
      { weight: 1, arbitrary: UUID.map((u): MdLeaf => ({ sent: u, flag: null, kept: u })) },
      { weight: 1, arbitrary: fc.constant<MdLeaf>({ sent: 'rec-17', flag: 'not_a_uuid', kept: 'rec-17' }) },
    ),
    account_id: mdText(UUID, 'not_a_uuid', true),
    recorded_at: mdText(DATETIME, 'not_a_date_time', true),
    uploaded_at: mdText(DATETIME, 'not_a_date_time', false),
    audio_file_format: mdText(fc.constantFrom('wav', 'mp3', 'WAVE'), null, false),
    audio_size_bytes: mdNumber(true, false),
    audio_sample_rate_hz: mdNumber(true, false),
    audio_bit_rate_bps: mdNumber(true, false),
    audio_duration_seconds: mdNumber(false, true),
    speech_duration_seconds: mdNumber(false, false),
  });
  const analyses = fc.tuple(
    ...types.map((t) =>
      fc.oneof(
        { weight: 5, arbitrary: analysisObjectArb(version, t) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(undefined, null).map((v) => ({
            value: v as Json | undefined,
            flags: [] as string[],
            status: null,
            values: null,
          })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom('completed', 7, [1]).map((v) => ({
            value: v as Json,
            flags: [`object_expected@analysis.${t}`],
            status: null,
            values: null,
          })),
        },
      ),
    ),
  );
  const unknownTypes = fc.dictionary(
    fc.constantFrom('mood', 'voice_age', ...(version === 'v1.2' ? ['communication_coach'] : [])),
    fc.oneof(EXTRA, fc.constant({ status: 'completed', insights: { x: 1 } } as Json)),
    { maxKeys: 2 },
  );
  const topExtra = fc.dictionary(fc.constantFrom('zz_trace', 'zz_server'), EXTRA, { maxKeys: 1 });
  const mdExtra = fc.dictionary(fc.constantFrom('zz_channels', 'zz_codec'), EXTRA, { maxKeys: 1 });
  const longer = fc.boolean();
  return fc
    .tuple(md, analyses, unknownTypes, topExtra, mdExtra, longer)
    .map(([m, an, unk, top, mdx, makeLonger]) => {
      const flags: string[] = [];
      const metadata: Record<string, Json> = {};
      const kept: Record<string, Json> = {};
      const mm = { ...m } as Record<string, MdLeaf>;
      // Speech longer than audio: only when both are well-formed numbers, decided here.
      const audio = mm['audio_duration_seconds']!;
      const speech = mm['speech_duration_seconds']!;
      if (
        typeof audio.sent === 'number' &&
        typeof speech.sent === 'number' &&
        audio.flag === null &&
        speech.flag === null
      ) {
        const s = makeLonger ? audio.sent + 1 : audio.sent * 0.5;
        mm['speech_duration_seconds'] = {
          sent: s,
          flag: makeLonger ? 'speech_longer_than_audio' : null,
          kept: s,
        };
      } else if (
        typeof audio.sent === 'number' &&
        typeof speech.sent === 'number' &&
        speech.sent > audio.sent + 0.01
      ) {
        flags.push('speech_longer_than_audio@metadata.speech_duration_seconds');
      }
      for (const [k, leaf] of Object.entries(mm)) {
        if (leaf.sent !== undefined) metadata[k] = leaf.sent;
        if (leaf.flag) flags.push(`${leaf.flag}@metadata.${k}`);
        kept[k] = leaf.kept;
      }
      for (const [k, v] of Object.entries(mdx)) {
        metadata[k] = v;
        flags.push(`unknown_field@metadata.${k}`);
      }
      const analysis: Record<string, Json> = {};
      const outcomes: LooseExpectation['outcomes'] = new Map();
      an.forEach((a, i) => {
        const t = types[i]!;
        if (a.value !== undefined) analysis[t] = a.value;
        flags.push(...a.flags);
        if (a.status !== null && a.values !== null) outcomes.set(t, { status: a.status, values: a.values });
      });
      for (const [k, v] of Object.entries(unk)) {
        analysis[k] = v;
        flags.push(`unknown_analysis_type@analysis.${k}`);
      }
      const body: Record<string, Json> = { metadata, analysis };
      for (const [k, v] of Object.entries(top)) {
        body[k] = v;
        flags.push(`unknown_field@${k}`);
      }
      return { body, expect: { flags, outcomes, unlisted: Object.keys(unk), metadata: kept } };
    });
};
