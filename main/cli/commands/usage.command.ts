/** `voicescope usage`: a profile's credits and uploads remaining, as the service reports them. */
import { EXIT, type WorkspaceCommand } from '../command';
import { reportProblem, resolveProfile } from '../lookup';

export const usageCommand: WorkspaceCommand = {
  name: 'usage',
  help: `  usage --profile <name|id>                 credits and uploads remaining`,
  run: async ({ svc, out, values: v }) => {
    const p = await resolveProfile(svc, v.profile);
    const r = await svc.readUsage(p.id);
    if (!r.ok) return reportProblem(out, r.error);
    out.say('usage', `${r.value.uploadsRemaining} uploads remaining (${JSON.stringify(r.value.detail)}).`, {
      usage: r.value,
    });
    return EXIT.ok;
  },
};
