/** `voicescope batch pause|resume|cancel`: the researcher's hand on a running batch. */
import { EXIT, need, unknownCommand, type WorkspaceCommand } from '../command';

/** What each move says once done. */
const DONE = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' } as const;

export const batchCommand: WorkspaceCommand = {
  name: 'batch',
  help: `  batch <pause|resume|cancel> --batch <id>    resume also starts a batch imported without starting`,
  run: async ({ svc, out, values: v, sub }) => {
    if (sub !== 'pause' && sub !== 'resume' && sub !== 'cancel') throw unknownCommand('batch', sub);
    const id = Number(need(v.batch, 'batch'));
    const done = await (sub === 'pause'
      ? svc.pauseBatch(id)
      : sub === 'resume'
        ? svc.resumeBatch(id)
        : svc.cancelBatch(id));
    if (!done) {
      out.problem(`Batch ${id} cannot be ${DONE[sub]} in its current state.`, 'See voicescope status.');
      return EXIT.usage;
    }
    out.say('batch', `Batch ${id}: ${DONE[sub]}.`);
    return EXIT.ok;
  },
};
