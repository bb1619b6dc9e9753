/**
 * `voicescope import`: without --yes a preview of what each file would become, and why; with --yes the
 * import is committed, accounts created, credits checked and the batch started (--wait: until done).
 */
import { explainApiError } from '../../../shared/api/api-error';
import { ANALYSIS_TYPES, analysisTypesFor, type AnalysisType } from '../../../shared/api/vocabulary';
import { seenElsewhereText } from '../../../shared/seen-elsewhere';
import type { ImportPlan } from '../../../shared/study';
import { EXIT, UsageError, type WorkspaceCommand } from '../command';
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
            : `same audio as ${f.duplicateOf?.path}`
          : f.verdict.findings.map((x) => `${x.message} ${x.action}`).join(' ');
    lines.push(`  ${f.action.replace(/_/g, ' ')}: ${f.path}${why ? ` — ${why}` : ''}`);
  }
  if (plan.newParticipants.length)
    lines.push(
      `  new participants (a service account will be created for each): ${plan.newParticipants.join(', ')}`,
    );
  return lines;
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
         [--send-borderline] [--label <l>] [--yes] [--wait]
                                            without --yes: a preview only, nothing written or sent`,
  run: async ({ svc, out, values: v, sub, rest }) => {
    const study = resolveStudy(svc, v.study);
    const profile = svc.listProfiles().find((p) => p.id === study.profileId)!;
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
    const accounts = await svc.createAccounts(study.id);
    if (!accounts.ok) return reportProblem(out, accounts.error);
    if (accounts.value.created.length)
      out.say(
        'accounts',
        `Created ${accounts.value.created.length} service accounts: ${accounts.value.created.map((c) => c.code).join(', ')}.`,
        { created: accounts.value.created },
      );
    for (const f of accounts.value.failed)
      out.problem(
        `No account could be created for ${f.code}: ${explainApiError(f.error).summary}`,
        'Its files wait as pending and are not sent; run the import again later.',
        { error: f.error },
      );
    for (const f of accounts.value.uncertain)
      out.problem(
        `The account request for ${f.code} has an unknown outcome: the service may have created it. It is not asked again on its own.`,
        `Decide with: voicescope account --study ${study.id} --participant ${f.code} --decision retry|leave|link`,
        { error: f.error, accountUncertain: true },
      );
    const credits = await svc.checkBatchCredits(committed.batchId);
    if (!credits.ok) return reportProblem(out, credits.error);
    out.say('credits', credits.value.message, { credits: credits.value });
    const started = await svc.startBatch(committed.batchId);
    if (!started.ok) return reportProblem(out, started.error);
    const waiting = svc.pendingWithoutAccount(study.id);
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
