/**
 * What `voicescope wait` and `voicescope status` say about a study once the engine has nothing left to
 * send or wait for: recordings per state, the decisions the researcher owes (uncertain uploads and
 * accounts, files waiting for an account, a paused queue), and the honest exit code:
 *
 *   4  a decision is needed (it comes first: until it is made, some files were never sent)
 *   3  a file was refused (locally or by the service) or an analysis failed
 *   8  an analysis got no result in time (timed out and still re-checked, or unanswered)
 *   0  every analysis of every sent file completed
 */
import type { StudyService } from '../services/study-service';
import { EXIT } from './command';
import type { Output } from './output';

const words = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`)
    .join(', ') || 'none';

/** Writes the recordings per state and every decision owed; returns how many decisions are owed. */
export const reportStudyOutcome = async (
  svc: StudyService,
  out: Output,
  studyId: number,
): Promise<number> => {
  const states = await svc.recordingStates(studyId);
  out.say('recordings', `Recordings: ${words(states)}.`, { recordingStates: states });
  const uncertain = await svc.uncertainUploads(studyId);
  for (const u of uncertain)
    out.problem(
      `Upload of ${u.path} (${u.participantCode}) has an unknown outcome: ${u.reason}`,
      `Decide with: voicescope resolve --recording ${u.recordingId} --decision queue_again|cancel|mark_uploaded_elsewhere`,
      { uncertain: u },
    );
  const accounts = (await svc.uncertainAccounts(studyId)).filter((a) => a.resolution === null);
  for (const a of accounts)
    out.problem(
      `The account request for ${a.participantCode} has an unknown outcome: ${a.reason} Its files are not sent until you decide.`,
      `Decide with: voicescope account --study ${studyId} --participant ${a.participantCode} --decision retry|leave (or --decision link --account-id <id> if you found the account)`,
      { accountUncertain: a },
    );
  const waiting = await svc.pendingWithoutAccount(studyId);
  if (waiting > 0 && accounts.length === 0)
    out.problem(
      `${waiting} file${waiting === 1 ? '' : 's'} wait${waiting === 1 ? 's' : ''} for a participant account and ${waiting === 1 ? 'was' : 'were'} not sent.`,
      'Create the accounts (run the import again, or in the app: Participants → Create accounts), or link existing ones.',
      { waitingForAccount: waiting },
    );
  const unanswered = states.unanswered ?? 0;
  if (unanswered > 0)
    out.problem(
      `${unanswered} recording${unanswered === 1 ? '' : 's'} never got an answer from the service (five minutes, then a day of re-checks).`,
      `Ask once more with: voicescope recheck --study ${studyId}`,
    );
  return uncertain.length + accounts.length + (waiting > 0 ? 1 : 0);
};

/** The exit code for the study as it stands (see the table above); `paused`: sending is paused. */
export const studyExitCode = async (svc: StudyService, studyId: number, paused: boolean): Promise<number> => {
  const s = await svc.recordingStates(studyId);
  const decisions =
    (await svc.uncertainUploads(studyId)).length +
    (await svc.uncertainAccounts(studyId)).filter((a) => a.resolution === null).length +
    (await svc.pendingWithoutAccount(studyId));
  if (decisions > 0 || paused) return EXIT.decide;
  if ((s.rejected ?? 0) + (s.refused_locally ?? 0) + (s.failed ?? 0) > 0) return EXIT.refused;
  if ((s.timed_out ?? 0) + (s.unanswered ?? 0) + (s.processing ?? 0) > 0) return EXIT.noResult;
  return EXIT.ok;
};
