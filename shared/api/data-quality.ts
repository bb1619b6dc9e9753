/**
 * The data-quality vocabulary: every way an answer of the service can depart from the specification
 * while still being read. A value that departs is kept as received (or, for a rating that differs only
 * in letter case, in the specification's spelling) and carries a flag with one of these codes. The
 * codebook of the exports and the window derive their wording from this one table.
 */

export const DATA_QUALITY = {
  required_missing: {
    meaning: 'The specification says the service always sends this member; it was absent or null.',
  },
  unknown_field: {
    meaning:
      'Reported by the service, not described by the specification: a member the specification does not list. Kept as received.',
  },
  unknown_analysis_type: {
    meaning:
      'Reported by the service, not described by the specification: an analysis type this API version does not list. Kept as received.',
  },
  object_expected: {
    meaning: 'The specification describes an object here; the service sent something else. Kept as received.',
  },
  rating_not_in_enum: {
    meaning:
      'A rating or class that is not one of the values the specification lists. Kept as received; compare with care.',
  },
  rating_case_normalised: {
    meaning:
      'A rating that differs from a listed value only in letter case (e.g. "High"); stored in the specification\'s spelling.',
  },
  status_not_in_enum: {
    meaning:
      'An analysis status that is not processing, completed, error or not_requested. Kept as received; the analysis is treated as still processing.',
  },
  status_case_normalised: {
    meaning:
      "An analysis status that differs from a listed one only in letter case; read in the specification's spelling.",
  },
  role_not_in_enum: {
    meaning: 'An account role other than "speaker", the only role the specification gives. Kept as received.',
  },
  text_expected: {
    meaning:
      'The specification describes text here; the service sent a number or another kind of value. Kept as received.',
  },
  number_expected: {
    meaning:
      'The specification describes a number here; the service sent text or another kind of value. Kept as received (as text).',
  },
  integer_expected: {
    meaning:
      'The specification describes a whole number here; the service sent a fraction. Kept as received.',
  },
  integer_too_large: {
    meaning:
      'A whole number too large to be held exactly (beyond 2^53); the value may have been rounded in reading.',
  },
  number_not_finite: {
    meaning: 'A number too large to represent (e.g. 1e400); kept as the text "Infinity" or "-Infinity".',
  },
  score_out_of_range: {
    meaning:
      "A score outside its range: 0 to 100 for the communication-coach scores and (our reading, docs/spec-decisions.md) the Parkinson's score. Kept as received.",
  },
  probability_out_of_range: {
    meaning: 'A probability below 0 or above 1. Kept as received.',
  },
  probabilities_do_not_sum_to_1: {
    meaning:
      'The three cognition probabilities (hc, mci, ad) do not add up to 1 (within 0.02). Each is kept as received.',
  },
  negative_value: {
    meaning:
      'A quantity that cannot be negative (a duration, size, sample or bit rate, rate per minute, ratio or standard deviation) is below zero. Kept as received.',
  },
  speech_longer_than_audio: {
    meaning: 'The service reports more seconds of speech than seconds of audio. Both are kept as received.',
  },
  values_while_processing: {
    meaning:
      'Values came with an analysis the service did not mark completed (still processing, error, not requested, or an unknown status). Kept as received.',
  },
  not_a_uuid: {
    meaning:
      'An identifier that is not in UUID format, as the specification says all identifiers are. Kept as received.',
  },
  not_a_date_time: {
    meaning: 'A timestamp that is not an ISO 8601 date-time with a time zone. Kept as received.',
  },
  negative_credits: {
    meaning:
      'A credit balance below zero. Kept as received; counted as zero when estimating uploads remaining.',
  },
  remaining_exceeds_granted: {
    meaning: 'More credits remaining in a bucket than were granted to it. Kept as received.',
  },
  receipt_account_differs: {
    meaning: 'The upload receipt names another account than the one the recording was sent for.',
  },
  receipt_recorded_at_differs: {
    meaning: 'The upload receipt gives another recording time than the one sent (compared as instants).',
  },
  receipt_format_differs: {
    meaning: "The service detected another audio format than the workstation's own reading of the file.",
  },
  receipt_duration_differs: {
    meaning:
      "The service's audio duration differs from the workstation's reading by more than 0.5 s or 1 % (whichever is larger).",
  },
  receipt_sample_rate_differs: {
    meaning: "The service's sample rate differs from the workstation's reading of the file.",
  },
  receipt_size_differs: {
    meaning:
      "The service's audio size differs from the size of the file sent (a larger file than sent is always flagged; a smaller one only without speaker isolation).",
  },
  receipt_speech_differs: {
    meaning:
      "The service's speech time differs from the workstation's estimate by more than 5 s or 20 % (whichever is larger). The local estimate is rough; read this as a hint.",
  },
} as const satisfies Readonly<Record<string, { readonly meaning: string }>>;

export type DataQualityCode = keyof typeof DATA_QUALITY;
export const DATA_QUALITY_CODES = Object.keys(DATA_QUALITY) as readonly DataQualityCode[];

export interface DataQualityFlag {
  readonly code: DataQualityCode;
  /** Where in the answer, in the specification's names: `metadata.audio_size_bytes`, `analysis.alzheimers.insights.cognition.rating`. */
  readonly path: string;
  /** Catalogue keys (measures.ts) of the stored values this flag is about; empty when it is about no measure. */
  readonly measures: readonly string[];
  /** What the service sent there, as JSON text (cut at 2,000 characters); null when it sent nothing. */
  readonly received: string | null;
  /** What the specification (or our documented reading of it) expects there, in words. */
  readonly expected: string;
}

const RECEIVED_CAP = 2_000;

/**
 * JSON text of a received value, never throwing: a value nested too deeply for JSON.stringify (the
 * parser accepts deeper nesting than the stack allows to write back) is named as such.
 */
export const jsonText = (v: unknown): string => {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  try {
    return JSON.stringify(v) ?? 'null';
  } catch {
    return '"(nested too deeply to keep as text)"';
  }
};

/** JSON text of a received value for a flag (cut at 2,000 characters); Infinity as its own name. */
export const receivedText = (v: unknown): string | null => {
  if (v === undefined) return null;
  const s = jsonText(v);
  return s.length > RECEIVED_CAP ? `${s.slice(0, RECEIVED_CAP)}…` : s;
};

export const dqFlag = (
  code: DataQualityCode,
  path: string,
  received: unknown,
  expected: string,
  measures: readonly string[] = [],
): DataQualityFlag => ({ code, path, measures, received: receivedText(received), expected });

/** The researcher's words for a flag, e.g. for a tooltip: meaning, then what came and what was expected. */
export const describeFlag = (f: DataQualityFlag): string =>
  `${DATA_QUALITY[f.code].meaning} Received: ${f.received ?? 'nothing'}. Expected: ${f.expected}.`;
