/**
 * Why an expected observation (a participant's visit) has no usable value: the study's missing-data
 * codes, written once. Exports put the `code` in a `missing_reason` column of every row without values,
 * the codebook lists them (as REDCap lists its missing-data codes), and the SPSS and Stata scripts declare
 * the numeric and extended-missing forms so a statistics package never mistakes a reason for a value.
 *
 * Order matters only for display (the completeness table's columns): from "nothing happened" to "happened
 * but unusable".
 */
export const MISSING_REASONS = [
  {
    reason: 'not_yet_due',
    code: 'ND',
    spss: -98,
    stata: '.h',
    label: 'Not yet due',
    meaning: "The visit's window has not closed yet; a recording may still come.",
  },
  {
    reason: 'not_recorded',
    code: 'NR',
    spss: -91,
    stata: '.a',
    label: 'Not recorded',
    meaning: "The visit's window closed with no recording assigned to it.",
  },
  {
    reason: 'withdrawn',
    code: 'WD',
    spss: -97,
    stata: '.g',
    label: 'Withdrawn',
    meaning: 'The participant had withdrawn from the study before this visit.',
  },
  {
    reason: 'held',
    code: 'HD',
    spss: -90,
    stata: '.j',
    label: 'Held for a decision',
    meaning: 'A recording exists but waits for the researcher (borderline speech, possible duplicate).',
  },
  {
    reason: 'refused_locally',
    code: 'RL',
    spss: -92,
    stata: '.b',
    label: 'Refused locally',
    meaning: "The workstation's checks refused the file before upload; the reason is in missing_detail.",
  },
  {
    reason: 'refused_by_service',
    code: 'RS',
    spss: -93,
    stata: '.c',
    label: 'Refused by the service',
    meaning: 'The service refused the upload; its error type is in missing_detail.',
  },
  {
    reason: 'failed',
    code: 'FA',
    spss: -94,
    stata: '.d',
    label: 'Failed',
    meaning: 'The upload or the analysis failed (the service answered with an error).',
  },
  {
    reason: 'in_progress',
    code: 'IP',
    spss: -99,
    stata: '.i',
    label: 'In progress',
    meaning: 'Uploaded, and the analysis has not answered yet.',
  },
  {
    reason: 'timed_out',
    code: 'TO',
    spss: -95,
    stata: '.e',
    label: 'Timed out',
    meaning: 'The service did not answer within the timeout and the slower re-checks.',
  },
  {
    reason: 'excluded',
    code: 'EX',
    spss: -96,
    stata: '.f',
    label: 'Excluded',
    meaning: 'The researcher excluded the recording from analysis; the reason is in missing_detail.',
  },
] as const;

export type MissingReason = (typeof MISSING_REASONS)[number]['reason'];
export type MissingCode = (typeof MISSING_REASONS)[number]['code'];
export const MISSING_REASON_NAMES = MISSING_REASONS.map((m) => m.reason) as readonly MissingReason[];
export const missingReason = (reason: MissingReason): (typeof MISSING_REASONS)[number] =>
  MISSING_REASONS.find((m) => m.reason === reason)!;
