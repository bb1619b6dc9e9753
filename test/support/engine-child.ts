/**
 * The study engine in its own process, for kill tests: opens the workspace given as argv[2] (its study
 * on the PostgreSQL server `VOICESCOPE_DATABASE_URL` names, when set), runs the queue and the poller with
 * test-speed settings, prints `ready`, and `idle` when nothing is pending.
 */
import { askedDatabase, openChosenStudyService } from '../../main/services/open-study-service';

const opened = await openChosenStudyService(
  {
    workspaceDir: process.argv[2]!,
    poll: {
      firstPollAfterMs: 5_000,
      intervalMs: 5_000,
      jitterMs: 0,
      globalRatePerSecond: 50,
      globalBurst: 10,
    },
    queue: { uploadConcurrency: 3, uploadsPerMinute: 6_000 },
    idleRecheckMs: 100,
  },
  askedDatabase(undefined, process.env),
);
if (!opened.ok) throw new Error(opened.error);
const svc = opened.value.service;
await svc.startEngine();
console.log('ready');
await svc.runnerFor(1)!.whenIdle();
await svc.close();
console.log('idle');
