/**
 * The specification's response shapes (spec: "Resources and their fields"), restated for the property
 * tests as plain data, independently of the client's zod schemas: each field's type and whether it is
 * required. Optional members may be absent or null in both versions (v1.3 clients tolerate null, as the
 * spec says). The arbitraries in wire-arbitraries.ts generate valid bodies from these shapes.
 */
import {
  ANALYSIS_STATUSES,
  ANXIETY_LEVELS,
  COGNITION_CLASSES,
  DEPRESSION_LEVELS,
  ORGANISATION_ROLES,
  STRESS_LEVELS,
  type ApiVersion,
} from '../../shared/api/vocabulary';

export type Leaf =
  | { readonly t: 'uuid' }
  | { readonly t: 'datetime' }
  /** An integer exact in a JavaScript number. */
  | { readonly t: 'int' }
  | { readonly t: 'double' }
  /** An integer from 0 to 100. */
  | { readonly t: 'score' }
  | { readonly t: 'string' }
  | { readonly t: 'bool' }
  | { readonly t: 'enum'; readonly values: readonly string[] };

export interface ObjectShape {
  readonly t: 'object';
  readonly fields: Readonly<Record<string, { readonly shape: Shape; readonly required: boolean }>>;
}
export type Shape = Leaf | ObjectShape;

const req = (shape: Shape) => ({ shape, required: true });
const opt = (shape: Shape) => ({ shape, required: false });
const obj = (fields: ObjectShape['fields']): ObjectShape => ({ t: 'object', fields });
const each = (names: readonly string[], f: (n: string) => { shape: Shape; required: boolean }) =>
  Object.fromEntries(names.map((n) => [n, f(n)]));

const UUID: Leaf = { t: 'uuid' };
const DT: Leaf = { t: 'datetime' };
const INT: Leaf = { t: 'int' };
const DBL: Leaf = { t: 'double' };
const STR: Leaf = { t: 'string' };
const en = (values: readonly string[]): Leaf => ({ t: 'enum', values });
const STATUS = en(ANALYSIS_STATUSES);

const RECORDING_FIELDS: readonly [string, Leaf][] = [
  ['recording_id', UUID],
  ['account_id', UUID],
  ['recorded_at', DT],
  ['uploaded_at', DT],
  ['audio_file_format', STR],
  ['audio_size_bytes', INT],
  ['audio_sample_rate_hz', INT],
  ['audio_bit_rate_bps', INT],
  ['audio_duration_seconds', DBL],
  ['speech_duration_seconds', DBL],
];

const metadata = obj({
  recording_id: req(UUID),
  account_id: req(UUID),
  recorded_at: req(DT),
  audio_duration_seconds: req(DBL),
  uploaded_at: opt(DT),
  audio_file_format: opt(STR),
  audio_size_bytes: opt(INT),
  audio_sample_rate_hz: opt(INT),
  audio_bit_rate_bps: opt(INT),
  speech_duration_seconds: opt(DBL),
});

const PD_INDICATORS: Readonly<Record<string, Leaf>> = {
  volume: INT,
  monoloudness: DBL,
  monotony: INT,
  articulation: INT,
  speech_rate: INT,
  speech_rate_stdev: INT,
  pause_duration: INT,
  pause_duration_stdev: INT,
  voice_quality: DBL,
  hnr: INT,
  stuttering: DBL,
};
const AD_INDICATORS = [
  'ttr',
  'brunet_index',
  'content_ratio',
  'mlu_words',
  'clause_ratio',
  'speech_rate',
  'speech_rate_stdev',
  'avg_pause_duration_ms',
  'pause_filler_words_per_min',
  'long_pause_ratio',
];
const pdIndicators = obj(each(Object.keys(PD_INDICATORS), (n) => opt(PD_INDICATORS[n]!)));
const adIndicators = obj(each(AD_INDICATORS, () => opt(DBL)));
const simulation = opt(obj({ simulated: req({ t: 'bool' }), generator: opt(STR) }));

const analysisV13 = obj({
  metadata: req(metadata),
  analysis: req(
    obj({
      wellbeing: opt(
        obj({
          status: req(STATUS),
          insights: opt(
            obj({
              stress: opt(obj({ rating: req(en(STRESS_LEVELS)) })),
              anxiety: opt(obj({ rating: req(en(ANXIETY_LEVELS)) })),
              depression: opt(obj({ rating: req(en(DEPRESSION_LEVELS)) })),
            }),
          ),
        }),
      ),
      parkinsons: opt(
        obj({
          status: req(STATUS),
          indicators: opt(pdIndicators),
          insights: opt(obj({ parkinsons: opt(obj({ rating: opt(STR), score: opt(INT) })) })),
        }),
      ),
      alzheimers: opt(
        obj({
          status: req(STATUS),
          indicators: opt(adIndicators),
          insights: opt(
            obj({
              cognition: opt(
                obj({
                  rating: req(en(COGNITION_CLASSES)),
                  scores: opt(obj({ hc: opt(DBL), mci: opt(DBL), ad: opt(DBL) })),
                }),
              ),
            }),
          ),
        }),
      ),
      communication_coach: opt(
        obj({
          status: req(STATUS),
          indicators: opt(obj({ word_rate: req(INT), fragment_rate: req(INT), filler_words_rate: req(DBL) })),
          insights: opt(
            obj(
              each(['rhythm', 'clarity', 'positiveness', 'speaking_rate'], () =>
                req(obj({ score: req({ t: 'score' }) })),
              ),
            ),
          ),
        }),
      ),
    }),
  ),
  simulation,
});

const analysisV12 = obj({
  metadata: req(metadata),
  analysis: req(
    obj({
      wellbeing: opt(
        obj({
          status: req(STATUS),
          predictions: opt(
            obj({
              stress: opt(obj({ result: opt(en(STRESS_LEVELS)) })),
              anxiety: opt(obj({ result: opt(en(ANXIETY_LEVELS)) })),
              depression: opt(obj({ result: opt(en(DEPRESSION_LEVELS)) })),
            }),
          ),
        }),
      ),
      parkinsons: opt(
        obj({
          status: req(STATUS),
          indicators: opt(pdIndicators),
          predictions: opt(obj({ risk_score: opt(INT), risk_band: opt(STR) })),
        }),
      ),
      alzheimers: opt(
        obj({
          status: req(STATUS),
          indicators: opt(adIndicators),
          predictions: opt(
            obj({
              hc_probability: opt(DBL),
              mci_probability: opt(DBL),
              ad_probability: opt(DBL),
              prediction: opt(en(COGNITION_CLASSES)),
            }),
          ),
        }),
      ),
    }),
  ),
  simulation,
});

export type ShapeEndpoint = 'ping' | 'createAccount' | 'upload' | 'getAnalysis' | 'getUsage';

export const SHAPES: Readonly<Record<ApiVersion, Readonly<Record<ShapeEndpoint, ObjectShape>>>> = {
  'v1.3': {
    ping: obj({ message: req(STR) }),
    createAccount: obj({ account_id: req(UUID), organisation_role: req(en(ORGANISATION_ROLES)) }),
    upload: obj({ ...Object.fromEntries(RECORDING_FIELDS.map(([k, l]) => [k, req(l)])), simulation }),
    getAnalysis: analysisV13,
    getUsage: obj({
      ...each(
        ['trial_remaining', 'trial_granted', 'included_remaining', 'included_granted', 'purchased_remaining'],
        () => req(INT),
      ),
      tier: opt(STR),
    }),
  },
  'v1.2': {
    ping: obj({ message: req(STR) }),
    createAccount: obj({ account_id: opt(UUID), organisation_role: opt(en(ORGANISATION_ROLES)) }),
    upload: obj({ ...Object.fromEntries(RECORDING_FIELDS.map(([k, l]) => [k, opt(l)])), simulation }),
    getAnalysis: analysisV12,
    getUsage: obj({ count: req(INT), limit: req(INT) }),
  },
};

/** The leaf shape at a path of a body, or null when the path is not in the shape (an extra field). */
export const shapeAt = (root: Shape, path: readonly string[]): Shape | null => {
  let s: Shape = root;
  for (const p of path) {
    if (s.t !== 'object') return null;
    const f: { shape: Shape } | undefined = s.fields[p];
    if (!f) return null;
    s = f.shape;
  }
  return s;
};

/** Whether the member at `path` is required by its parent object. */
export const isRequiredAt = (root: Shape, path: readonly string[]): boolean => {
  const parent = shapeAt(root, path.slice(0, -1));
  return parent !== null && parent.t === 'object' && parent.fields[path[path.length - 1]!]?.required === true;
};
