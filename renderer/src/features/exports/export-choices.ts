/**
 * What the researcher has chosen on the export page, and the request it makes: which participants, days,
 * sessions, analysis types and states, which files, for which program, in which time zone.
 */
import { type AnalysisType } from '../../../../shared/api/vocabulary';
import {
  EXPORT_FORMS,
  type ExportExtra,
  type ExportForm,
  type ExportPreset,
  type ExportRequestInput,
} from '../../../../shared/export';
import { ANALYSIS_STATES, type AnalysisState } from '../../../../shared/states';

export interface ExportChoices {
  /** Every participant, or only the codes typed. */
  allParticipants: boolean;
  codes: string;
  /** Calendar days (yyyy-mm-dd), or blank for no bound. */
  from: string;
  to: string;
  /** Null: every session (every analysis type); a list: only these. */
  sessions: string[] | null;
  analyses: AnalysisType[] | null;
  states: AnalysisState[];
  forms: ExportForm[];
  extras: ExportExtra[];
  preset: ExportPreset;
  timeZone: string;
  /** Also write the link file (participant code ↔ service account id). */
  link: boolean;
  /** Null: the study's own k (its change statistics setting); a number: chosen for this export. */
  baselineSessions: number | null;
}

/** The page's first choices: everything, the three forms, for R, Python and SPSS, in this computer's zone. */
export const initialChoices = (timeZone: string): ExportChoices => ({
  allParticipants: true,
  codes: '',
  from: '',
  to: '',
  sessions: null,
  analyses: null,
  states: [...ANALYSIS_STATES],
  forms: [...EXPORT_FORMS],
  extras: [],
  preset: 'standard',
  timeZone,
  link: false,
  baselineSessions: null,
});

/** Participant codes as typed: one per line, or separated by commas, semicolons or tabs; each once. */
export const splitCodes = (s: string) => [
  ...new Set(
    s
      .split(/[\n,;\t]+/)
      .map((c) => c.trim())
      .filter(Boolean),
  ),
];

/** A list with an item ticked (added at the end) or unticked (every copy removed). */
export const toggled = <T>(list: readonly T[], item: T, on: boolean): T[] =>
  on ? [...list, item] : list.filter((x) => x !== item);

/** The request the choices make; what is left at "everything" is left out of it. */
export const exportRequest = (studyId: number, c: ExportChoices): ExportRequestInput => ({
  studyId,
  timeZone: c.timeZone,
  forms: c.forms,
  extras: c.extras,
  preset: c.preset,
  includeLinkFile: c.link,
  ...(c.baselineSessions !== null ? { baselineSessions: c.baselineSessions } : {}),
  ...(c.allParticipants ? {} : { participants: splitCodes(c.codes) }),
  ...(c.from ? { from: c.from } : {}),
  ...(c.to ? { to: c.to } : {}),
  ...(c.sessions ? { sessions: c.sessions } : {}),
  ...(c.analyses ? { analyses: c.analyses } : {}),
  ...(c.states.length < ANALYSIS_STATES.length ? { states: c.states } : {}),
});

/**
 * Whether the choices leave the export nothing to do (no form, state, analysis type, participant code or
 * session) or nowhere to write (the desktop app, no folder chosen yet): the Export button waits.
 */
export const choicesIncomplete = (c: ExportChoices, folderMissing: boolean): boolean =>
  c.forms.length === 0 ||
  c.states.length === 0 ||
  c.analyses?.length === 0 ||
  (!c.allParticipants && splitCodes(c.codes).length === 0) ||
  c.sessions?.length === 0 ||
  folderMissing;

/** What each part of the export form is given: the choices, and how to change some of them. */
export interface ChoicesProps {
  choices: ExportChoices;
  change: (patch: Partial<ExportChoices>) => void;
  /** Makes the form's radio groups' names and fields' ids unique on the page. */
  groupId: string;
}
