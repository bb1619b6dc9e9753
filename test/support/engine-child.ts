/**
 * The study engine in its own process, for kill tests: opens the workspace given as argv[2], runs the
 * queue and the poller with test-speed settings, prints `ready`, and `idle` when nothing is pending.
 */
import { openStudyService } from '../../main/services/study-service';

const svc = openStudyService({
  workspaceDir: process.argv[2]!,
  poll: { firstPollAfterMs: 5_000, intervalMs: 5_000, jitterMs: 0, globalRatePerSecond: 50, globalBurst: 10 },
  queue: { uploadConcurrency: 3, uploadsPerMinute: 6_000 },
  idleRecheckMs: 100,
});
await svc.startEngine();
console.log('ready');
await svc.runnerFor(1)!.whenIdle();
await svc.close();
console.log('idle');
