/** `voicescope status`: a study's batches, its recordings per state, and what waits for a decision. */
import { EXIT, type WorkspaceCommand } from '../command';
import { resolveStudy } from '../lookup';
import { reportStudyOutcome } from '../study-outcome';
import { countsText } from '../wait-for-study';

export const statusCommand: WorkspaceCommand = {
  name: 'status',
  help: `  status --study <name|id>                  batches, recordings per state, and what needs a decision
                                            (exit code 4 when a decision is needed, else 0)`,
  run: async ({ svc, out, values: v }) => {
    const study = resolveStudy(svc, v.study);
    for (const b of svc.batches(study.id)) out.say('batch', countsText(b), { batch: b });
    return reportStudyOutcome(svc, out, study.id) > 0 ? EXIT.decide : EXIT.ok;
  },
};
