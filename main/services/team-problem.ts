/** A team command's refusal, in the researcher's words, with its kind. */
export const TEAM_PROBLEMS = [
  'DATABASE',
  'NOT_ADMIN',
  'NOT_TEAM',
  'INPUT',
  'NOT_FOUND',
  'TAKEN',
  'AUDIT',
] as const;
export interface TeamProblem {
  readonly code: (typeof TEAM_PROBLEMS)[number];
  readonly message: string;
}
