/**
 * `voicescope status`: a study's batches, its recordings per state, and what waits for a decision. A batch
 * whose import stopped before its start is a decision owed: `voicescope wait` starts it (interrupted-import.ts).
 */
import { basename } from 'node:path';
import { sayWaitingForWorkstations } from '../away-workstations';
import { EXIT, type WorkspaceCommand } from '../command';
import { reportInterruptedImports } from '../interrupted-import';
import { resolveStudy } from '../lookup';
import { reportStudyOutcome } from '../study-outcome';
import { countsText } from '../wait-for-study';

export const statusCommand: WorkspaceCommand = {
  name: 'status',
  help: `  status --study <name|id>                  batches, recordings per state, files waiting for a
                                            workstation that is away, and what needs a decision
                                            (exit code 4 when a decision is needed, including a
                                            batch whose import stopped before its start; else 0);
                                            dismissed needs-you items with who, when and why`,
  run: async ({ svc, out, values: v }) => {
    const study = await resolveStudy(svc, v.study);
    for (const b of await svc.batches(study.id)) out.say('batch', countsText(b), { batch: b });
    sayWaitingForWorkstations(out, await svc.waitingForWorkstations(study.id));
    const owed =
      (await reportStudyOutcome(svc, out, study.id)) + (await reportInterruptedImports(svc, out, study.id));
    for (const d of await svc.dismissedNeedsYouItems(study.id))
      out.say(
        'dismissed',
        `Dismissed: recording ${d.recordingId} (${basename(d.path)}, ${d.participantCode}, ${d.uploadState.replace(/_/g, ' ')}) by ${d.who} at ${d.at}: ${d.reason ?? 'no reason'} (undo: voicescope curate undo --act ${d.act}).`,
        { dismissed: d },
      );
    return owed > 0 ? EXIT.decide : EXIT.ok;
  },
};
