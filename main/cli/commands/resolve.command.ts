/** `voicescope resolve`: the researcher's decision on an upload whose outcome is unknown. */
import { EXIT, need, UsageError, type WorkspaceCommand } from '../command';

export const resolveCommand: WorkspaceCommand = {
  name: 'resolve',
  help: `  resolve --recording <id> --decision <queue_again|cancel|mark_uploaded_elsewhere>`,
  run: async ({ svc, out, values: v }) => {
    const d = need(v.decision, 'decision');
    if (d !== 'queue_again' && d !== 'cancel' && d !== 'mark_uploaded_elsewhere')
      throw new UsageError('--decision must be queue_again, cancel or mark_uploaded_elsewhere.');
    const done = await svc.resolveUncertain(Number(need(v.recording, 'recording')), d);
    if (!done) {
      out.problem('That recording is not waiting for a decision.', 'See voicescope status --study <study>.');
      return EXIT.usage;
    }
    out.say('resolved', `Recording ${v.recording}: ${d.replace(/_/g, ' ')}.`);
    return EXIT.ok;
  },
};
