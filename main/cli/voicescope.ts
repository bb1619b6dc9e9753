/**
 * `voicescope`: the study engine without a window, for lab servers and scheduled weekly imports.
 * The same services as the desktop app (main/services/study-service.ts). See docs/cli.md.
 *
 * Exit codes: 0 done; 1 unexpected failure; 2 wrong usage; 3 some files were refused (locally or by the
 * service) or analyses failed; 4 the researcher must decide (uncertain uploads, paused queue, missing
 * accounts); 5 the service or the profile cannot be used (address, key, access); 6 timed out waiting;
 * 7 the export was not written (nothing selected, folder taken or unwritable, disk full, cancelled).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ANALYSIS_TYPES,
  analysisTypesFor,
  type AnalysisType,
  type ApiVersion,
} from '../../shared/api/vocabulary';
import type { BatchProgress, ImportPlan } from '../../shared/study';
import { defaultWorkspaceDir } from '../services/workspace';
import { openStudyService, type ServiceProblem, type StudyService } from '../services/study-service';
import { createOutput, type Output } from './output';

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  refused: 3,
  decide: 4,
  service: 5,
  timeout: 6,
  notExported: 7,
} as const;

const HELP = `voicescope: the Voicescope study engine on the command line

Usage: voicescope <command> [options]        (also: npm run cli -- <command> [options])

Commands:
  profile add --name <n> --url <base-url> --api <v1.3|v1.2> (--key-env <VAR> | --key-stdin)
  profile list
  profile test --profile <name|id>          ping and read usage
  study create --name <n> --profile <name|id>
  study list
  import --study <name|id> [<file|folder>...] [--manifest <csv>] [--pattern <p>] [--tz <zone>]
         [--analyses <a,b>] [--isolate] [--convert] [--insist-duplicates] [--label <l>] [--yes] [--wait]
                                            without --yes: a preview only, nothing written or sent
  status --study <name|id>                  batches, counts and uploads needing a decision
  wait --study <name|id> [--timeout <s>]    send and collect results until nothing is pending
  run                                       keep the engine running (all profiles) until stopped
  usage --profile <name|id>                 credits and uploads remaining
  resolve --recording <id> --decision <queue_again|cancel|mark_uploaded_elsewhere>
  batch <pause|resume|cancel> --batch <id>
  settings [--first-poll <s>] [--poll-interval <s>] [--poll-jitter <s>] [--budget <requests/s>]
           [--upload-concurrency <n>] [--uploads-per-minute <n>]
                                            show or tune the poller and the queue (never under 5 s)
  manifest-template                         print an empty manifest to fill in
  export --study <name|id> --out <folder> [--folder <name>] [--forms long,wide,summary] [--preset standard|excel]
         [--participant <code>]... [--session <label>]... [--from <date>] [--to <date>] [--analyses <a,b>]
         [--states <s,t>] [--link-file] [--tz <zone>] [--baseline-sessions <k>]
                                            indicator spreadsheets with a codebook (see docs/export.md)

Options: --home <dir> (workspace; default $VOICESCOPE_HOME or ~/.voicescope), --json (JSON lines), -h, --help
Exit codes: 0 done, 1 failure, 2 usage, 3 refusals, 4 decisions needed, 5 service/profile unusable, 6 timeout, 7 not exported.`;

const OPTIONS = {
  home: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  url: { type: 'string' },
  api: { type: 'string' },
  'key-env': { type: 'string' },
  'key-stdin': { type: 'boolean' },
  profile: { type: 'string' },
  study: { type: 'string' },
  manifest: { type: 'string' },
  pattern: { type: 'string' },
  tz: { type: 'string' },
  analyses: { type: 'string' },
  isolate: { type: 'boolean' },
  convert: { type: 'boolean' },
  'insist-duplicates': { type: 'boolean' },
  label: { type: 'string' },
  yes: { type: 'boolean' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  'first-poll': { type: 'string' },
  'poll-interval': { type: 'string' },
  'poll-jitter': { type: 'string' },
  budget: { type: 'string' },
  'upload-concurrency': { type: 'string' },
  'uploads-per-minute': { type: 'string' },
  recording: { type: 'string' },
  decision: { type: 'string' },
  batch: { type: 'string' },
  sandbox: { type: 'boolean' },
  out: { type: 'string' },
  folder: { type: 'string' },
  forms: { type: 'string' },
  preset: { type: 'string' },
  participant: { type: 'string', multiple: true },
  session: { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
  states: { type: 'string' },
  'link-file': { type: 'boolean' },
  'baseline-sessions': { type: 'string' },
} as const;

class UsageError extends Error {}

const need = (v: string | undefined, flag: string): string => {
  if (v === undefined || v === '') throw new UsageError(`--${flag} is required.`);
  return v;
};

const reportProblem = (out: Output, p: ServiceProblem): number => {
  out.problem(p.message, p.action, p.apiError ? { error: p.apiError } : {});
  return p.apiError &&
    ['Unauthorized', 'Suspended', 'ApiNotProvisioned', 'NetworkError', 'Timeout'].includes(p.apiError.kind)
    ? EXIT.service
    : EXIT.refused;
};

const countsText = (b: BatchProgress): string => {
  const parts = Object.entries(b.uploads).map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`);
  const an = Object.entries(b.analysesByState).map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`);
  return `batch ${b.batchId}${b.label ? ` (${b.label})` : ''} [${b.state}]: ${b.total} files: ${parts.join(', ')}${an.length ? `; analyses: ${an.join(', ')}` : ''}`;
};

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
    if (f.action === 'upload') continue;
    const why =
      f.action === 'unassigned'
        ? f.assignmentProblem
        : f.action === 'duplicate'
          ? `same audio as ${f.duplicateOf?.path}`
          : f.verdict.findings.map((x) => `${x.message} ${x.action}`).join(' ');
    lines.push(`  ${f.action.replace(/_/g, ' ')}: ${f.path}${why ? ` — ${why}` : ''}`);
  }
  if (plan.newParticipants.length)
    lines.push(
      `  new participants (a service account will be created for each): ${plan.newParticipants.join(', ')}`,
    );
  return lines;
};

const list = (v: string | undefined): string[] | undefined =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);

/** The version written into every export's codebook. */
const appVersion = (): string => {
  try {
    return (
      (
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
          version?: string;
        }
      ).version ?? 'unknown'
    );
  } catch {
    return 'unknown';
  }
};

const resolveStudy = (svc: StudyService, v: string | undefined) => {
  const s = svc.findStudy(need(v, 'study'));
  if (!s) throw new UsageError(`No study "${v}". List them with: voicescope study list`);
  return s;
};
const resolveProfile = (svc: StudyService, v: string | undefined) => {
  const key = need(v, 'profile');
  const p = svc.listProfiles().find((x) => x.name === key || String(x.id) === key);
  if (!p) throw new UsageError(`No service profile "${key}". List them with: voicescope profile list`);
  return p;
};

/** Runs the engine until the study has nothing pending; the exit code says how it ended. */
const waitForStudy = async (
  svc: StudyService,
  out: Output,
  studyId: number,
  timeoutS: number | null,
): Promise<number> => {
  const profileId = svc.findStudy(String(studyId))!.profileId!;
  svc.startEngine();
  const runner = svc.runnerFor(profileId);
  if (!runner)
    return reportProblem(out, {
      message: "The API key of this study's profile cannot be read.",
      action: "Run voicescope profile add again, or set the key's environment variable.",
    });
  const show = () => {
    for (const b of svc.batches(studyId).filter((x) => x.state === 'running' || x.analysesByState.processing))
      out.progress(countsText(b), { batch: b });
  };
  const ticker = setInterval(show, 500);
  const timeout =
    timeoutS === null
      ? null
      : new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutS * 1000).unref());
  const outcome = await Promise.race([
    runner.whenIdle().then(() => 'idle' as const),
    ...(timeout ? [timeout] : []),
  ]);
  clearInterval(ticker);
  out.done();
  for (const b of svc.batches(studyId)) out.say('batch', countsText(b), { batch: b });
  const uncertain = svc.uncertainUploads(studyId);
  for (const u of uncertain)
    out.problem(
      `Upload of ${u.path} (${u.participantCode}) has an unknown outcome: ${u.reason}`,
      `Decide with: voicescope resolve --recording ${u.recordingId} --decision queue_again|cancel|mark_uploaded_elsewhere`,
      { uncertain: u },
    );
  const pause = runner.state().pause;
  if (pause)
    out.problem(
      `Sending is paused: ${pause.reason}`,
      'Fix the cause, then run: voicescope wait again (or resume in the app).',
      { pause },
    );
  if (outcome === 'timeout') return EXIT.timeout;
  if (uncertain.length || pause) return EXIT.decide;
  const bad = svc
    .batches(studyId)
    .some(
      (b) =>
        (b.uploads.rejected ?? 0) > 0 ||
        (b.uploads.refused_locally ?? 0) > 0 ||
        (b.analysesByState.error ?? 0) > 0,
    );
  return bad ? EXIT.refused : EXIT.ok;
};

export const main = async (argv: readonly string[]): Promise<number> => {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    process.stderr.write(`voicescope: ${e instanceof Error ? e.message : String(e)}\n\n${HELP}\n`);
    return EXIT.usage;
  }
  const v = args.values;
  const [cmd, sub, ...rest] = args.positionals;
  const out = createOutput(v.json === true);
  if (v.help || !cmd) {
    process.stdout.write(`${HELP}\n`);
    return cmd || v.help ? EXIT.ok : EXIT.usage;
  }
  if (cmd === 'manifest-template') {
    const { manifestTemplate } = await import('../import/manifest');
    process.stdout.write(manifestTemplate());
    return EXIT.ok;
  }
  const svc = openStudyService({ workspaceDir: v.home ?? defaultWorkspaceDir() });
  try {
    switch (`${cmd} ${['profile', 'study', 'batch'].includes(cmd) ? (sub ?? '') : ''}`.trim()) {
      case 'profile add': {
        const api = need(v.api, 'api');
        if (api !== 'v1.3' && api !== 'v1.2') throw new UsageError('--api must be v1.3 or v1.2.');
        let apiKey: string | undefined;
        if (v['key-stdin']) apiKey = readFileSync(0, 'utf8').trim();
        if (!apiKey && !v['key-env'])
          throw new UsageError(
            'Give the API key with --key-env <VARIABLE> or --key-stdin (it is never taken on the command line, where other users could see it).',
          );
        const r = svc.createProfile({
          name: need(v.name, 'name'),
          baseUrl: need(v.url, 'url'),
          apiVersion: api as ApiVersion,
          ...(apiKey ? { apiKey } : {}),
          ...(v['key-env'] ? { keyEnv: v['key-env'] } : {}),
          isSandbox: v.sandbox === true,
        });
        if (!r.ok) return reportProblem(out, r.error);
        out.say(
          'profile',
          `Profile ${r.value.id} "${r.value.name}" (${r.value.apiVersion}, ${r.value.baseUrl}); key kept in ${r.value.keyRef}.`,
          { profile: r.value },
        );
        return EXIT.ok;
      }
      case 'profile list':
        for (const p of svc.listProfiles())
          out.say(
            'profile',
            `${p.id}  ${p.name}  ${p.apiVersion}  ${p.baseUrl}${p.isSandbox ? '  (sandbox: simulated results)' : ''}`,
            { profile: p },
          );
        return EXIT.ok;
      case 'profile test': {
        const p = resolveProfile(svc, v.profile);
        const r = await svc.testProfile(p.id);
        if (!r.ok) return reportProblem(out, r.error);
        out.say('usage', `Connected to ${p.baseUrl}: ${r.value.uploadsRemaining} uploads remaining.`, {
          usage: r.value,
        });
        return EXIT.ok;
      }
      case 'study create': {
        const p = resolveProfile(svc, v.profile);
        const r = svc.createStudy({ name: need(v.name, 'name'), profileId: p.id });
        if (!r.ok) return reportProblem(out, r.error);
        out.say('study', `Study ${r.value.id} "${r.value.name}" created.`, { study: r.value });
        return EXIT.ok;
      }
      case 'study list':
        for (const s of svc.listStudies())
          out.say('study', `${s.id}  ${s.name}  ${s.participants} participants, ${s.recordings} recordings`, {
            study: s,
          });
        return EXIT.ok;
      case 'import': {
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
        const committed = await svc.commitImport(plan, { insistOnDuplicates: insist, label: v.label ?? '' });
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
            `No account could be created for ${f.code}.`,
            'Its files wait as pending; run the import again later.',
            { error: f.error },
          );
        const credits = await svc.checkBatchCredits(committed.batchId);
        if (!credits.ok) return reportProblem(out, credits.error);
        out.say('credits', credits.value.message, { credits: credits.value });
        const started = await svc.startBatch(committed.batchId);
        if (!started.ok) return reportProblem(out, started.error);
        out.say('started', `Batch ${committed.batchId} started.`, { batch: started.value });
        if (!v.wait) return EXIT.ok;
        return await waitForStudy(svc, out, study.id, v.timeout ? Number(v.timeout) : null);
      }
      case 'settings': {
        const num = (x: string | undefined, flag: string) => {
          if (x === undefined) return undefined;
          const n = Number(x);
          if (!Number.isFinite(n) || n < 0 || (n === 0 && flag !== 'poll-jitter'))
            throw new UsageError(`--${flag} must be a positive number.`);
          return n;
        };
        const poll = Object.fromEntries(
          Object.entries({
            firstPollAfterMs: num(v['first-poll'], 'first-poll'),
            intervalMs: num(v['poll-interval'], 'poll-interval'),
            jitterMs: num(v['poll-jitter'], 'poll-jitter'),
            globalRatePerSecond: num(v.budget, 'budget'),
          })
            .filter(([, x]) => x !== undefined)
            .map(([k, x]) => [k, k === 'globalRatePerSecond' ? x : x! * 1000]),
        );
        const queue = Object.fromEntries(
          Object.entries({
            uploadConcurrency: num(v['upload-concurrency'], 'upload-concurrency'),
            uploadsPerMinute: num(v['uploads-per-minute'], 'uploads-per-minute'),
          }).filter(([, x]) => x !== undefined),
        );
        const s =
          Object.keys(poll).length || Object.keys(queue).length
            ? svc.saveSettings({ poll, queue })
            : svc.settings();
        const sec = (ms: number) => `${ms / 1000} s`;
        out.say(
          'settings',
          `Polling: first after ${sec(s.poll.firstPollAfterMs)}, then every ${sec(s.poll.intervalMs)} ± ${sec(s.poll.jitterMs)}; timed out after ${sec(s.poll.timeoutMs)}, then re-checked every ${sec(s.poll.slowIntervalMs)} for ${sec(s.poll.slowForMs)}; at most ${s.poll.globalRatePerSecond} requests/s (burst ${s.poll.globalBurst}).\nUploads: ${s.queue.uploadConcurrency} at once, at most ${s.queue.uploadsPerMinute} per minute.`,
          { settings: s },
        );
        return EXIT.ok;
      }
      case 'status': {
        const study = resolveStudy(svc, v.study);
        for (const b of svc.batches(study.id)) out.say('batch', countsText(b), { batch: b });
        const uncertain = svc.uncertainUploads(study.id);
        for (const u of uncertain)
          out.problem(
            `Upload of ${u.path} (${u.participantCode}) has an unknown outcome: ${u.reason}`,
            `voicescope resolve --recording ${u.recordingId} --decision queue_again|cancel|mark_uploaded_elsewhere`,
            { uncertain: u },
          );
        return uncertain.length ? EXIT.decide : EXIT.ok;
      }
      case 'wait': {
        const study = resolveStudy(svc, v.study);
        return await waitForStudy(svc, out, study.id, v.timeout ? Number(v.timeout) : null);
      }
      case 'run': {
        svc.startEngine();
        out.say(
          'running',
          'The engine is running; stop it with Ctrl+C (uploads in flight are allowed to finish).',
        );
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        return EXIT.ok;
      }
      case 'usage': {
        const p = resolveProfile(svc, v.profile);
        const r = await svc.readUsage(p.id);
        if (!r.ok) return reportProblem(out, r.error);
        out.say(
          'usage',
          `${r.value.uploadsRemaining} uploads remaining (${JSON.stringify(r.value.detail)}).`,
          { usage: r.value },
        );
        return EXIT.ok;
      }
      case 'resolve': {
        const d = need(v.decision, 'decision');
        if (d !== 'queue_again' && d !== 'cancel' && d !== 'mark_uploaded_elsewhere')
          throw new UsageError('--decision must be queue_again, cancel or mark_uploaded_elsewhere.');
        const done = svc.resolveUncertain(Number(need(v.recording, 'recording')), d);
        if (!done) {
          out.problem(
            'That recording is not waiting for a decision.',
            'See voicescope status --study <study>.',
          );
          return EXIT.usage;
        }
        out.say('resolved', `Recording ${v.recording}: ${d.replace(/_/g, ' ')}.`);
        return EXIT.ok;
      }
      case 'batch pause':
      case 'batch resume':
      case 'batch cancel': {
        const id = Number(need(v.batch, 'batch'));
        const done =
          sub === 'pause' ? svc.pauseBatch(id) : sub === 'resume' ? svc.resumeBatch(id) : svc.cancelBatch(id);
        if (!done) {
          out.problem(
            `Batch ${id} cannot be ${sub === 'pause' ? 'paused' : sub === 'resume' ? 'resumed' : 'cancelled'} in its current state.`,
            'See voicescope status.',
          );
          return EXIT.usage;
        }
        out.say('batch', `Batch ${id}: ${sub}d.`.replace('cancel d', 'cancelled'));
        return EXIT.ok;
      }
      case 'export': {
        const study = resolveStudy(svc, v.study);
        const k = v['baseline-sessions'];
        if (k !== undefined && !/^\d+$/.test(k))
          throw new UsageError('--baseline-sessions takes a whole number of sessions (1 to 20).');
        const { runExport } = await import('../export/run-export');
        const ac = new AbortController();
        const cancel = () => ac.abort();
        process.once('SIGINT', cancel);
        // The request is checked by the exporter itself (same rules as the app): a wrong form or zone comes back as invalid_request.
        const r = await runExport(
          svc.db,
          {
            studyId: study.id,
            timeZone: v.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
            ...(v.forms !== undefined ? { forms: list(v.forms) } : {}),
            ...(v.preset !== undefined ? { preset: v.preset } : {}),
            ...(v.participant ? { participants: v.participant } : {}),
            ...(v.session ? { sessions: v.session } : {}),
            ...(v.from !== undefined ? { from: v.from } : {}),
            ...(v.to !== undefined ? { to: v.to } : {}),
            ...(v.analyses !== undefined ? { analyses: list(v.analyses) } : {}),
            ...(v.states !== undefined ? { states: list(v.states) } : {}),
            ...(k !== undefined ? { baselineSessions: Number(k) } : {}),
            includeLinkFile: v['link-file'] === true,
          },
          {
            outDir: resolve(need(v.out, 'out')),
            ...(v.folder ? { folderName: v.folder } : {}),
            appVersion: appVersion(),
            signal: ac.signal,
            onProgress: (p) =>
              out.progress(
                `Exporting: ${p.recordingsDone}/${p.recordingsTotal} recordings, ${(p.bytesWritten / 1e6).toFixed(1)} MB`,
                { progress: p },
              ),
          },
        );
        process.off('SIGINT', cancel);
        out.done();
        if (!r.ok) {
          out.problem(r.error.message, r.error.action, { code: r.error.code });
          return r.error.code === 'invalid_request' ? EXIT.usage : EXIT.notExported;
        }
        const e = r.value;
        const files = e.files
          .filter((f) => f.rows !== null)
          .map((f) => `${f.name} (${f.rows} rows)`)
          .join(', ');
        out.say(
          'exported',
          `Exported ${e.counts.recordings} recordings of ${e.counts.participants} participants to ${e.directory}: ${files}, with codebook.md, datapackage.json, load.R, load.py and SHA256SUMS.${e.anySimulated ? ` Note: ${e.counts.simulatedRecordings} recordings carry simulated values (column simulated = true).` : ''}`,
          { report: e },
        );
        return EXIT.ok;
      }
      default:
        throw new UsageError(`Unknown command "${[cmd, sub].filter(Boolean).join(' ')}".`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`voicescope: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  } finally {
    await svc.close();
  }
};

const isEntry = process.argv[1] !== undefined && /voicescope(\.ts|\.js|\.mjs)?$/.test(process.argv[1]);
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `voicescope: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exitCode = EXIT.failure;
    },
  );
}
