/**
 * The study engine as the soak test runs it, in its own process so that it can be SIGKILLed at any
 * moment: opens the workspace (argv[2]) with the tuning given as JSON (argv[3]), on the study database
 * `VOICESCOPE_DATABASE_URL` names when it is set (else the workspace's file), runs every queue, prints
 * `ready`, then `idle` when nothing is pending, and exits.
 */
import { askedDatabase, openChosenStudyService } from '../../main/services/open-study-service';
import type { StudyServiceOptions } from '../../main/services/study-service';

const [home, tuning] = process.argv.slice(2) as [string, string];
const t = JSON.parse(tuning) as Pick<StudyServiceOptions, 'poll' | 'queue' | 'client'> & {
  profileId: number;
};

const opened = await openChosenStudyService(
  {
    workspaceDir: home,
    idleRecheckMs: 100,
    ...(t.poll ? { poll: t.poll } : {}),
    ...(t.queue ? { queue: t.queue } : {}),
    ...(t.client ? { client: t.client } : {}),
  },
  askedDatabase(undefined, process.env),
);
if (!opened.ok) throw new Error(opened.error);
const svc = opened.value.service;
await svc.startEngine();
console.log('ready');
await svc.runnerFor(t.profileId)!.whenIdle();
await svc.close();
console.log('idle');
