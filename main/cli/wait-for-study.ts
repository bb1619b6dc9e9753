/** Running the engine until a study has nothing pending (`wait`, `import --wait`), and how a batch reads on one line. */
import type { BatchProgress } from '../../shared/study';
import type { StudyService } from '../services/study-service';
import { EXIT } from './command';
import { reportProblem } from './lookup';
import type { Output } from './output';

export const countsText = (b: BatchProgress): string => {
  const parts = Object.entries(b.uploads).map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`);
  const an = Object.entries(b.analysesByState).map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`);
  return `batch ${b.batchId}${b.label ? ` (${b.label})` : ''} [${b.state}]: ${b.total} files: ${parts.join(', ')}${an.length ? `; analyses: ${an.join(', ')}` : ''}`;
};

/** Runs the engine until the study has nothing pending; the exit code says how it ended. */
export const waitForStudy = async (
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
