/**
 * Every screen's address, written once. `patterns` are what the router matches (wouter's `:param`
 * syntax); `paths` builds the address of a screen from its ids, filling the same patterns, so a link
 * cannot point where no route is. Feature folders declare their routes from `patterns`; links and
 * navigations use `paths`.
 */
import type { ComponentType } from 'react';

export const patterns = {
  setup: '/setup',
  studies: '/studies',
  newStudy: '/studies/new',
  newStudyFor: '/studies/new/:profileId',
  study: '/studies/:id',
  /** The study's screens (the sidebar's study section shows while this matches). */
  inStudy: '/studies/:id/*?',
  participants: '/studies/:id/participants',
  participantsFiltered: '/studies/:id/participants/filter/:filter',
  participant: '/studies/:id/participants/:pid',
  recordings: '/studies/:id/recordings',
  recordingsFiltered: '/studies/:id/recordings/filter/:filter',
  recording: '/studies/:id/recordings/:rid',
  /** One measure across the study's participants, grouped by their attributes. */
  cohort: '/studies/:id/cohort',
  batches: '/studies/:id/batches',
  batch: '/studies/:id/batches/:bid',
  import: '/studies/:id/import',
  export: '/studies/:id/export',
  studyData: '/studies/:id/data',
  changeSettings: '/studies/:id/change',
  design: '/studies/:id/design',
  usage: '/usage',
  settings: '/settings',
  privacy: '/privacy',
  audit: '/audit',
  deletedStudy: '/deleted-study',
} as const;

export type Pattern = (typeof patterns)[keyof typeof patterns];

/** The parameter names of a pattern, e.g. 'id' | 'pid' for '/studies/:id/participants/:pid'. */
export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What `useParams` gives a route's component: each parameter as the text of the address. */
export type RouteParams<P extends string> = { readonly [K in ParamsOf<P>]: string };

/** Fills a pattern's parameters; each value is encoded as one path segment. */
export const fill = <P extends Pattern>(pattern: P, params: Readonly<Record<ParamsOf<P>, string | number>>) =>
  pattern.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, string | number>)[name])),
  );

const studyPaths = (id: number) => ({
  overview: fill(patterns.study, { id }),
  participants: fill(patterns.participants, { id }),
  participantsFiltered: (filter: string) => fill(patterns.participantsFiltered, { id, filter }),
  participant: (pid: number) => fill(patterns.participant, { id, pid }),
  recordings: fill(patterns.recordings, { id }),
  recordingsFiltered: (filter: string) => fill(patterns.recordingsFiltered, { id, filter }),
  recording: (rid: number) => fill(patterns.recording, { id, rid }),
  cohort: fill(patterns.cohort, { id }),
  batches: fill(patterns.batches, { id }),
  batch: (bid: number) => fill(patterns.batch, { id, bid }),
  import: fill(patterns.import, { id }),
  export: fill(patterns.export, { id }),
  data: fill(patterns.studyData, { id }),
  change: fill(patterns.changeSettings, { id }),
  design: fill(patterns.design, { id }),
});

export const paths = {
  setup: patterns.setup,
  studies: patterns.studies,
  newStudy: (profileId?: number) =>
    profileId === undefined ? patterns.newStudy : fill(patterns.newStudyFor, { profileId }),
  study: studyPaths,
  usage: patterns.usage,
  settings: patterns.settings,
  privacy: patterns.privacy,
  audit: patterns.audit,
  deletedStudy: patterns.deletedStudy,
} as const;

/** One screen: the pattern it answers to and its component. */
export type FeatureRoute = readonly [path: Pattern, component: ComponentType];
