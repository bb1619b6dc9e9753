/** `voicescope recheck`: one more check for results the service never gave (unanswered) or that are late. */
import { EXIT, type WorkspaceCommand } from '../command';
import { resolveStudy } from '../lookup';

export const recheckCommand: WorkspaceCommand = {
  name: 'recheck',
  help: `  recheck --study <name|id> [--recording <id>]
                                            ask the service once more for unanswered results (all of the
                                            study, or one recording); then run wait or run to collect them`,
  run: async ({ svc, out, values: v }) => {
    const study = await resolveStudy(svc, v.study);
    const ids = v.recording ? [Number(v.recording)] : await svc.unansweredRecordings(study.id);
    if (ids.length === 0) {
      out.say('recheck', 'No recording of this study is waiting for an answer: nothing to check again.');
      return EXIT.ok;
    }
    const r = await svc.retryRecordings(ids, new Date().toISOString());
    if (r.retried === 0) {
      out.problem(
        'That recording has no unanswered or late results to check again.',
        `See voicescope status --study ${study.id}.`,
      );
      return EXIT.usage;
    }
    out.say(
      'recheck',
      `${r.retried} recording${r.retried === 1 ? '' : 's'} will be checked once more. Run voicescope wait --study ${study.id} to collect the answers.`,
      { retried: r.retried, skipped: r.skipped },
    );
    return EXIT.ok;
  },
};
