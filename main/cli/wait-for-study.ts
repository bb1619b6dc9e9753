/** Running the engine until a study has nothing pending (`wait`, `import --wait`), and how a batch reads on one line. */
import type { BatchProgress } from '../../shared/study';
import type { StudyService } from '../services/study-service';
import type { AbsentHolder } from '../db/repos/workstations.repo';
import { sayWaitingForWorkstations } from './away-workstations';
import { EXIT } from './command';
import { reportProblem } from './lookup';
import type { Output } from './output';
import { reportStudyOutcome, studyExitCode } from './study-outcome';

export const countsText = (b: BatchProgress): string => {
  const parts = Object.entries(b.uploads).map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`);
  const an = Object.entries(b.analysesByState).map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`);
  return `batch ${b.batchId}${b.label ? ` (${b.label})` : ''} [${b.state}]: ${b.total} files: ${parts.join(', ')}${an.length ? `; analyses: ${an.join(', ')}` : ''}`;
};

/** How often `wait` asks whether only away workstations' files are left. */
const AWAY_CHECK_MS = 2000;

/**
 * Resolves with the away workstations once all that is left for the study is theirs to send (nothing
 * else queued that a present workstation holds, no analysis processing); asks every AWAY_CHECK_MS
 * until stopped.
 */
const awayOnly = (svc: StudyService, studyId: number) => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const found = new Promise<AbsentHolder[]>((resolve) => {
    const check = async () => {
      const holders = await svc.waitingOnlyForWorkstations(studyId).catch(() => []);
      if (stopped) return;
      if (holders.length > 0) resolve(holders);
      else timer = setTimeout(() => void check(), AWAY_CHECK_MS);
    };
    timer = setTimeout(() => void check(), AWAY_CHECK_MS);
  });
  return {
    found,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
};

/**
 * Runs the engine until every recording of the study is completed, failed, refused or timed out (or
 * waits for a decision); the slow re-checks of timed-out analyses go on under `voicescope run` and in
 * the app. With the specification's five-minute timeout this returns within a few minutes of the last
 * upload even when the service never answers a poll. On a team study it also returns when all that is
 * left waits for workstations that are away (EXIT.awayWorkstation, naming them). The exit code says how
 * it ended (study-outcome.ts; EXIT.timeout only when `--timeout` ran out first).
 */
export const waitForStudy = async (
  svc: StudyService,
  out: Output,
  studyId: number,
  timeoutS: number | null,
): Promise<number> => {
  const profileId = (await svc.findStudy(String(studyId)))!.profileId!;
  await svc.startEngine();
  const runner = svc.runnerFor(profileId);
  if (!runner)
    return reportProblem(out, {
      message: "The API key of this study's profile cannot be read.",
      action: "Run voicescope profile add again, or set the key's environment variable.",
    });
  const show = async () => {
    for (const b of (await svc.batches(studyId)).filter(
      (x) => x.state === 'running' || x.analysesByState.processing,
    ))
      out.progress(countsText(b), { batch: b });
  };
  // One progress line at a time, and none after the last (awaited below).
  let showing: Promise<void> = Promise.resolve();
  const ticker = setInterval(() => {
    showing = showing.then(show).catch(() => {}); // progress is only a view; a failed read skips a line
  }, 500);
  let timer: NodeJS.Timeout | undefined;
  const timeout =
    timeoutS === null
      ? null
      : new Promise<'timeout'>((r) => {
          timer = setTimeout(() => r('timeout'), timeoutS * 1000);
          timer.unref();
        });
  const away = awayOnly(svc, studyId);
  const outcome = await Promise.race([
    runner.whenIdle().then(() => 'idle' as const),
    away.found,
    ...(timeout ? [timeout] : []),
  ]);
  away.stop();
  clearInterval(ticker);
  await showing;
  if (timer) clearTimeout(timer);
  out.done();
  for (const b of await svc.batches(studyId)) out.say('batch', countsText(b), { batch: b });
  await reportStudyOutcome(svc, out, studyId);
  const pause = runner.state().pause;
  if (pause)
    out.problem(
      `Sending is paused: ${pause.reason}`,
      'Fix the cause, then run: voicescope wait again (or resume in the app).',
      { pause },
    );
  if (outcome === 'timeout') return EXIT.timeout;
  if (outcome !== 'idle') {
    sayWaitingForWorkstations(out, outcome);
    out.problem(
      'Nothing else is left to send: the rest waits for workstations that are away, which alone hold the files.',
      'Start Voicescope on each workstation named (voicescope run, or the window) so it sends them, or copy the files to a shared folder this workstation reads under the same path.',
    );
    return EXIT.awayWorkstation;
  }
  return studyExitCode(svc, studyId, pause !== null);
};
