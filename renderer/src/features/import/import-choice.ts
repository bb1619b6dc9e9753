/**
 * What the researcher chose in the wizard's first step, how it becomes the preview request, and what
 * is missing before a preview makes sense (said in words next to the field it concerns).
 */
import type { Input } from '../../../../shared/contract';
import {
  ANALYSIS_TYPES,
  analysisTypesFor,
  type AnalysisType,
  type ApiVersion,
} from '../../../../shared/api/vocabulary';
import { isTimeZone } from '../../../../shared/time-zone';

export interface ImportChoice {
  readonly paths: readonly string[];
  /** How files get their participant: the rows of a manifest, or a pattern in their names. */
  readonly mapping: 'manifest' | 'pattern';
  readonly manifestPath: string;
  readonly pattern: string;
  readonly timeZone: string;
  readonly analyses: readonly AnalysisType[];
  readonly isolate: boolean;
  readonly convert: boolean;
  /** Multichannel files: the channel sent, for the whole import ('auto': the one with most speech). */
  readonly channel: ChannelChoice;
  /** The channel chosen for single files (their details in the preview), by path, over `channel`. */
  readonly channelByFile: Readonly<Record<string, ChannelChoice>>;
}

export type ChannelChoice = 'auto' | 'mix' | number;

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const initialChoice = (version: ApiVersion): ImportChoice => ({
  paths: [],
  mapping: 'manifest',
  manifestPath: '',
  pattern: '{participant}_{session}_{date:YYYYMMDD}.wav',
  timeZone: browserTimeZone(),
  analyses: [...analysisTypesFor(version)],
  isolate: false,
  convert: false,
  channel: 'auto',
  channelByFile: {},
});

export type ChoiceProblems = Partial<
  Record<'paths' | 'manifest' | 'pattern' | 'timeZone' | 'analyses', string>
>;

export const problemsOf = (c: ImportChoice): ChoiceProblems => {
  const p: { -readonly [K in keyof ChoiceProblems]: string } = {};
  if (c.mapping === 'manifest' && !c.manifestPath.trim())
    p.manifest = 'Choose the manifest (a CSV file), or match participants by file name instead.';
  if (c.mapping === 'pattern') {
    if (c.paths.length === 0) p.paths = 'Add at least one folder or file.';
    if (!c.pattern.includes('{participant}'))
      p.pattern = 'The pattern needs {participant}, e.g. {participant}_{session}_{date:YYYYMMDD}.wav.';
  }
  if (!isTimeZone(c.timeZone))
    p.timeZone = `“${c.timeZone}” is not a time zone name; use one such as Europe/Berlin or America/New_York.`;
  if (c.analyses.length === 0) p.analyses = 'Choose at least one analysis.';
  return p;
};

export const previewRequest = (studyId: number, c: ImportChoice): Input<'imports.preview'> => ({
  studyId,
  paths: [...c.paths],
  ...(c.mapping === 'manifest' && c.manifestPath.trim() ? { manifestPath: c.manifestPath.trim() } : {}),
  ...(c.mapping === 'pattern' && c.pattern.trim() ? { filenamePattern: c.pattern.trim() } : {}),
  timeZone: c.timeZone.trim(),
  analyses: [...c.analyses],
  isolateOldestSpeaker: c.isolate,
  convert: c.convert,
  ...(c.channel !== 'auto' ? { channel: c.channel } : {}),
  ...(Object.keys(c.channelByFile).length
    ? { channelByFile: Object.entries(c.channelByFile).map(([path, channel]) => ({ path, channel })) }
    : {}),
});

/** The last path segment, for a default batch label. */
export const lastSegment = (p: string): string => p.split(/[\\/]/).filter(Boolean).at(-1) ?? p;

/**
 * The folder a typed path would sit in if it names a file (`/` for a file at the root), or null when
 * the path has no folder part.
 */
export const parentFolder = (p: string): string | null => {
  const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return cut > 0 ? p.slice(0, cut) : cut === 0 ? p.slice(0, 1) : null;
};

/** The analyses chosen after ticking or unticking one: ticked ones keep the order the version offers them in. */
export const withAnalysis = (
  offered: readonly AnalysisType[],
  chosen: readonly AnalysisType[],
  type: AnalysisType,
  on: boolean,
): AnalysisType[] =>
  on ? offered.filter((x) => x === type || chosen.includes(x)) : chosen.filter((x) => x !== type);

/** The analyses a version of the API does not offer, for the sentence under the choice. */
export const analysesNotOffered = (version: ApiVersion): AnalysisType[] => {
  const offered = analysisTypesFor(version);
  return ANALYSIS_TYPES.filter((t) => !offered.includes(t));
};
