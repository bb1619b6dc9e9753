/**
 * An import interrupted between its commit and its start (a crash, a kill): the batch was written with
 * the intent to start (migration 0100) but is still open. `voicescope status` finds it and says so (a
 * decision: exit 4); `voicescope wait` finds it, starts it and asks for the accounts the import would
 * have created, as `import --yes` does (the accounts' outcomes are reported the same way by both).
 */
import { explainApiError } from '../../shared/api/api-error-explained';
import type { AccountCreationReport } from '../engine/accounts';
import type { StudyService } from '../services/study-service';
import type { Output } from './output';

/** What the account requests of an import gave: created, failed, or of unknown outcome (the researcher decides). */
export const reportAccounts = (out: Output, studyId: number, report: AccountCreationReport): void => {
  if (report.created.length)
    out.say(
      'accounts',
      `Created ${report.created.length} service accounts: ${report.created.map((c) => c.code).join(', ')}.`,
      { created: report.created },
    );
  for (const f of report.failed)
    out.problem(
      `No account could be created for ${f.code}: ${explainApiError(f.error).summary}`,
      'Its files wait as pending and are not sent; run the import again later.',
      { error: f.error },
    );
  for (const f of report.uncertain)
    out.problem(
      `The account request for ${f.code} has an unknown outcome: the service may have created it. It is not asked again on its own.`,
      `Decide with: voicescope account --study ${studyId} --participant ${f.code} --decision retry|leave|link`,
      { error: f.error, accountUncertain: true },
    );
};

/** Says which batches of the study an interrupted import left unstarted; returns how many. */
export const reportInterruptedImports = async (
  svc: StudyService,
  out: Output,
  studyId: number,
): Promise<number> => {
  const ids = await svc.interruptedBatches(studyId);
  for (const batchId of ids)
    out.problem(
      `Batch ${batchId} was imported to be sent, but the import stopped before starting it: nothing of it is sent yet.`,
      `Start it with: voicescope wait --study ${studyId} (it also creates the accounts the import needed)`,
      { interruptedBatch: batchId },
    );
  return ids.length;
};

/**
 * Starts the study's batches whose import stopped before their start, and says so, then asks for the
 * accounts their waiting files need. Returns the ids of the batches started.
 */
export const resumeInterruptedImports = async (
  svc: StudyService,
  out: Output,
  studyId: number,
): Promise<number[]> => {
  const started = await svc.startInterruptedBatches(studyId);
  for (const batchId of started)
    out.say(
      'resumed',
      `Batch ${batchId} was imported to be sent, but the import stopped before starting it: it is started now.`,
      { batchId },
    );
  if (started.length && (await svc.pendingWithoutAccount(studyId)) > 0) {
    const accounts = await svc.createAccounts(studyId);
    if (accounts.ok) reportAccounts(out, studyId, accounts.value);
    else out.problem(accounts.error.message, accounts.error.action);
  }
  return started;
};
