/**
 * The analysis types and their names, without zod: the window's first screen shows them and must not
 * load zod (test/unit/renderer/first-screen-scripts.test.ts). vocabulary.ts builds its schema from these.
 */
export const ANALYSIS_TYPES = ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

/** The analysis types' names as written inside a sentence ("the wellbeing analysis failed"). */
export const ANALYSIS_NAME: Readonly<Record<AnalysisType, string>> = {
  wellbeing: 'wellbeing',
  parkinsons: "Parkinson's",
  alzheimers: "Alzheimer's",
  communication_coach: 'communication coach',
};
/** The same names as labels (capitalised), in the window and in the exports' codebook alike. */
export const ANALYSIS_LABEL: Readonly<Record<AnalysisType, string>> = Object.fromEntries(
  ANALYSIS_TYPES.map((t) => [t, ANALYSIS_NAME[t].charAt(0).toUpperCase() + ANALYSIS_NAME[t].slice(1)]),
) as Record<AnalysisType, string>;
