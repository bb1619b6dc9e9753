/**
 * `voicescope import`: without --yes a preview of what each file would become, and why; with --yes the
 * import is committed, accounts created, credits checked and the batch started (--wait: until done).
 */
import { ANALYSIS_TYPES, analysisTypesFor, type AnalysisType } from '../../../shared/api/vocabulary';
import { seenElsewhereText } from '../../../shared/seen-elsewhere';
import type { ImportPlan } from '../../../shared/study';
import { EXIT, UsageError, type WorkspaceCommand } from '../command';
import { reportAccounts } from '../interrupted-import';
import { reportProblem, resolveStudy } from '../lookup';
import { waitForStudy } from '../wait-for-study';

const planText = (plan: ImportPlan): string[] => {
  const lines = [
    `${plan.files.length} files: ${Object.entries(plan.counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`)
      .join(', ')}`,
  ];
  for (const e of plan.manifestErrors) lines.push(`  manifest line ${e.line}: ${e.message}`);
  for (const n of plan.notices) lines.push(`  note: ${n}`);
  for (const f of plan.files) {
    const warnings = f.verdict.findings.filter((x) => x.severity === 'warn');
    if (f.action === 'upload' || f.action === 'convert_and_upload') {
      // Files that will be sent are listed only when they carry warnings, and then with every warning.
      if (warnings.length)
        lines.push(
          `  ${f.action.replace(/_/g, ' ')}, with warnings: ${f.path} — ${warnings.map((x) => `${x.message} ${x.action}`).join(' ')}`,
        );
      continue;
    }
    if (f.action === 'borderline') {
      lines.push(
        `  borderline: about ${(f.speechSeconds ?? 0).toFixed(1)} s of speech: ${f.path} — ${f.verdict.findings.map((x) => x.message).join(' ')} Add --send-borderline to send it (the service decides; a refusal costs no credit).`,
      );
      continue;
    }
    const why =
      f.action === 'unassigned'
        ? f.assignmentProblem
        : f.action === 'duplicate'
          ? f.seenElsewhere?.length
            ? seenElsewhereText(f.seenElsewhere)
            : `same audio as ${f.duplicateOf?.path}${f.unstartedBatchId !== undefined ? `, waiting in batch ${f.unstartedBatchId}, which was never started (voicescope batch resume --batch ${f.unstartedBatchId})` : ''}`
          : f.alreadyRefused
            ? `already refused before (recording ${f.alreadyRefused.recordingId}, same audio): not added again`
            : f.verdict.findings.map((x) => `${x.message} ${x.action}`).join(' ');
    lines.push(`  ${f.action.replace(/_/g, ' ')}: ${f.path}${why ? ` — ${why}` : ''}`);
  }
  if (plan.newParticipants.length)
    lines.push(
      `  new participants (a service account will be created for each): ${plan.newParticipants.join(', ')}`,
    );
  return lines;
};

/**
 * Test hook for the kill test (test/integration/cli/voicescope-interrupted-import.slow.test.ts): with
 * VOICESCOPE_TEST_HOOKS=1 and VOICESCOPE_TEST_HOLD_AFTER_COMMIT=1 the import stops between its commit and
 * the batch's start and waits there to be killed. Without both variables it does nothing.
 */
const holdForKillTest = async (): Promise<void> => {
  if (
    process.env['VOICESCOPE_TEST_HOOKS'] !== '1' ||
    process.env['VOICESCOPE_TEST_HOLD_AFTER_COMMIT'] !== '1'
  )
    return;
  process.stdout.write('{"kind":"test-hold"}\n');
  await new Promise<never>(() => setInterval(() => {}, 60_000));
};

/** `--channel`: auto (the channel with most speech), mix, or a channel number from 1. */
const parseChannel = (v: string | undefined): 'auto' | 'mix' | number => {
  if (v === undefined || v === 'auto') return 'auto';
  if (v === 'mix') return 'mix';
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new UsageError(`--channel takes auto, mix or a channel number from 1; got ${v}.`);
  return n;
};

export const importCommand: WorkspaceCommand = {
  name: 'import',
  help: `  import --study <name|id> [<file|folder>...] [--manifest <csv>] [--pattern <p>] [--tz <zone>]
         [--analyses <a,b>] [--isolate] [--convert] [--channel <auto|mix|n>] [--insist-duplicates]
         [--send-borderline] [--label <l>] [--site <code>] [--yes] [--wait]
                                            without --yes: a preview only, nothing written or sent;
                                            --site: the site of new participants (team studies)`,
  run: async ({ svc, out, values: v, sub, rest }) => {
    const refused = svc.refusalForRole('import');
    if (refused) return reportProblem(out, refused);
    const study = await resolveStudy(svc, v.study);
    if ((v.site?.length ?? 0) > 1)
      throw new UsageError('Give --site once: the site of the new participants.');
    const site = await svc.importSite(study.id, v.site?.[0], 'command');
    if (!site.ok) return reportProblem(out, site.error);
    const profile = (await svc.listProfiles()).find((p) => p.id === study.profileId)!;
    const analyses = v.analyses
      ? v.analyses.split(',').map((s) => s.trim())
      : [...analysisTypesFor(profile.apiVersion)].filter((a) => a !== 'communication_coach');
    const unknown = analyses.filter((a) => !(ANALYSIS_TYPES as readonly string[]).includes(a));
    if (unknown.length)
      throw new UsageError(
        `Unknown analysis type ${unknown.join(', ')}; choose among ${ANALYSIS_TYPES.join(', ')}.`,
      );
    const paths = [sub, ...rest].filter((x): x is string => x !== undefined);
    const planned = await svc.planImport(
      {
        studyId: study.id,
        paths,
        manifestPath: v.manifest,
        filenamePattern: v.pattern,
        timeZone: v.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        analyses: analyses as AnalysisType[],
        isolateOldestSpeaker: v.isolate === true,
        convert: v.convert === true,
        channel: parseChannel(v.channel),
      },
      (done, total) => out.progress(`Checking files: ${done}/${total}`, { done, total }),
    );
    out.done();
    if (!planned.ok) return reportProblem(out, planned.error);
    const plan = planned.value;
    const [head, ...details] = planText(plan);
    out.say('plan', `${head}${details.length ? `\n${details.join('\n')}` : ''}`, {
      counts: plan.counts,
      manifestErrors: plan.manifestErrors,
      newParticipants: plan.newParticipants,
      files: plan.files,
    });
    if (!v.yes) {
      out.say('preview', 'Preview only: nothing was written or sent. Add --yes to import.');
      return EXIT.ok;
    }
    const insist = v['insist-duplicates']
      ? plan.files.filter((f) => f.action === 'duplicate').map((f) => f.path)
      : [];
    const committed = await svc.commitImport(plan, {
      insistOnDuplicates: insist,
      ...(v['send-borderline'] ? { sendBorderline: true as const } : {}),
      label: v.label ?? '',
      site: site.value,
      // The start intent is written with the import: if this process stops before the start below, the
      // next `voicescope wait` or `status` (or the app) finds the batch and starts it.
      start: true,
    });
    out.say(
      'batch',
      `Batch ${committed.batchId}: ${committed.recordings} recordings (${Object.entries(committed.byState)
        .map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`)
        .join(', ')}).`,
      { batchId: committed.batchId, byState: committed.byState },
    );
    for (const f of committed.conversionFailures)
      out.problem(
        `${f.path} could not be converted: ${f.reason}`,
        'Check the file; the original is untouched.',
      );
    await holdForKillTest();
    // On a team database, several workstations send: one that cannot yet leaves the batch to the others.
    const cannotSend = svc.member === null ? null : await svc.sendingProblem(study.id);
    if (cannotSend !== null) {
      // This workstation cannot send yet (a coordinator's without the service's key): the batch is
      // queued with its start intent, for this workstation once it has the key, or another that can.
      out.say(
        'queued',
        `Batch ${committed.batchId} is queued, not sent from here: ${cannotSend.message} ${cannotSend.action} Until then only a workstation that has the key and sees the same files can send them.`,
        { batchId: committed.batchId },
      );
      return EXIT.ok;
    }
    const accounts = await svc.createAccounts(study.id);
    if (!accounts.ok) return reportProblem(out, accounts.error);
    reportAccounts(out, study.id, accounts.value);
    const credits = await svc.checkBatchCredits(committed.batchId);
    if (!credits.ok) return reportProblem(out, credits.error);
    out.say('credits', credits.value.message, { credits: credits.value });
    const started = await svc.startBatch(committed.batchId);
    if (!started.ok) return reportProblem(out, started.error);
    const waiting = await svc.pendingWithoutAccount(study.id);
    out.say(
      'started',
      waiting > 0
        ? `Batch ${committed.batchId} started, but ${waiting} file${waiting === 1 ? '' : 's'} cannot be sent until ${waiting === 1 ? 'its participant has' : 'their participants have'} an account.`
        : `Batch ${committed.batchId} started.`,
      { batch: started.value, waitingForAccount: waiting },
    );
    if (!v.wait) return waiting > 0 ? EXIT.decide : EXIT.ok;
    return await waitForStudy(svc, out, study.id, v.timeout ? Number(v.timeout) : null);
  },
};
