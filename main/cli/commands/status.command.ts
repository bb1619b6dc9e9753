/** `voicescope status`: a study's batches, their counts, and the uploads waiting for a decision. */
import { EXIT, type WorkspaceCommand } from '../command';
import { resolveStudy } from '../lookup';
import { countsText } from '../wait-for-study';

export const statusCommand: WorkspaceCommand = {
  name: 'status',
  help: `  status --study <name|id>                  batches, counts and uploads needing a decision`,
  run: async ({ svc, out, values: v }) => {
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
  },
};
