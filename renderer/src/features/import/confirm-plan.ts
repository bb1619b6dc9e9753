/**
 * What an import will send and ask for, worked out from the preview's summary and the researcher's
 * choices (duplicates sent anyway, borderline files sent), and the steps that carry it out.
 */
import type { Input } from '../../../../shared/contract';
import type { PlanSummary } from '../../../../shared/contract/imports.contract';

/** The files sent: valid ones, converted copies, duplicates sent anyway and the borderline files chosen. */
export const filesToSend = (
  counts: PlanSummary['counts'],
  insisted: number,
  borderlineSent: number,
): number => (counts.upload ?? 0) + (counts.convert_and_upload ?? 0) + insisted + borderlineSent;

/** Files imported but never sent: refused ones, and duplicates held back (not those sent anyway). */
export const keptNotSent = (counts: PlanSummary['counts'], insisted: number): number =>
  (counts.refused ?? 0) + (counts.duplicate ?? 0) - insisted;

/**
 * The participants who need a service account before their files can be sent (new ones and those
 * without an account), once each. Nothing to send: no account to create.
 */
export const accountsToCreate = (summary: PlanSummary, sending: number): string[] =>
  sending === 0 ? [] : [...new Set([...summary.newParticipants, ...summary.participantsWithoutAccount])];

/** Participant codes in a sentence: the first `shown`, then how many more. */
export const someCodes = (codes: readonly string[], shown: number): string =>
  codes.length > shown
    ? `${codes.slice(0, shown).join(', ')} and ${codes.length - shown} more`
    : codes.join(', ');

/** The steps of the confirm button, in order: the accounts only when some are to be created. */
export type RunStep = 'commit' | 'accounts' | 'credits' | 'start';
export const RUN_STEP_LABEL: Record<RunStep, string> = {
  commit: 'Importing the files (converted copies are written now)',
  accounts: 'Creating service accounts, one request each',
  credits: 'Reading the credits left',
  start: 'Starting the batch',
};
export const runSteps = (withAccounts: boolean): RunStep[] => [
  'commit',
  ...(withAccounts ? ['accounts' as const] : []),
  'credits',
  'start',
];

/**
 * The site new participants are put at, as chosen before any choice is made: the one site the member
 * works at; none while several are offered (the researcher must choose) or none is known yet.
 */
export const presetSite = (sites: readonly { code: string }[]): string | undefined =>
  sites.length === 1 ? sites[0]!.code : undefined;

/**
 * The commit request: duplicates sent anyway, either every borderline file or those ticked one by one,
 * and on a team study the site of new participants.
 */
export const commitRequest = (c: {
  planId: string;
  insist: ReadonlySet<string>;
  sendAllBorderline: boolean;
  chosenBorderline: ReadonlySet<string>;
  label: string;
  site?: string | undefined;
  start: boolean;
}): Input<'imports.commit'> => ({
  planId: c.planId,
  insistOnDuplicates: [...c.insist],
  ...(c.sendAllBorderline
    ? { sendBorderline: true as const }
    : c.chosenBorderline.size
      ? { sendBorderline: [...c.chosenBorderline] }
      : {}),
  label: c.label.trim(),
  ...(c.site ? { site: c.site } : {}),
  ...(c.start ? { start: true } : {}),
});
