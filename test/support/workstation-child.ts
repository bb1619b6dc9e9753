/**
 * One workstation of a team study, in its own process for kill tests: opens the workspace argv[2] on
 * the study database `VOICESCOPE_DATABASE_URL` names, with claims that hold argv[4] seconds unless
 * renewed; given a manifest argv[5] (and a site argv[6]), imports its files into the study first and
 * starts their batch (`imported`); creates the accounts study argv[3]'s participants still need (as a
 * researcher at this workstation confirming them), runs the queue and the poller with test-speed
 * settings, prints `ready`, and `idle` when nothing is pending.
 */
import { askedDatabase, openChosenStudyService } from '../../main/services/open-study-service';

const [home, study, lease, manifestPath, site] = process.argv.slice(2) as [
  string,
  string,
  string,
  string | undefined,
  string | undefined,
];
const opened = await openChosenStudyService(
  {
    workspaceDir: home,
    poll: {
      firstPollAfterMs: 5_000,
      intervalMs: 5_000,
      jitterMs: 0,
      globalRatePerSecond: 50,
      globalBurst: 10,
    },
    queue: { uploadConcurrency: 3, uploadsPerMinute: 6_000 },
    idleRecheckMs: 100,
    leaseSeconds: Number(lease),
    onEvent: (e) => {
      if (e.type === 'queue-paused') console.error(`paused: ${JSON.stringify(e)}`);
    },
  },
  askedDatabase(undefined, process.env),
);
if (!opened.ok) throw new Error(opened.error);
const svc = opened.value.service;
if (manifestPath) {
  const plan = await svc.planImport({
    studyId: Number(study),
    paths: [],
    manifestPath,
    timeZone: 'UTC',
    analyses: ['wellbeing', 'parkinsons'],
    isolateOldestSpeaker: false,
    convert: false,
  });
  if (!plan.ok) throw new Error(plan.error.message);
  const { batchId, byState } = await svc.commitImport(plan.value, { start: true, ...(site ? { site } : {}) });
  const started = await svc.startBatch(batchId);
  if (!started.ok) throw new Error(started.error.message);
  console.log('imported', JSON.stringify(byState));
}
const accounts = await svc.createAccounts(Number(study));
if (!accounts.ok) throw new Error(accounts.error.message);
await svc.startEngine();
console.log('ready');
await svc.runnerFor(1)!.whenIdle();
await svc.close();
console.log('idle');
