/** `voicescope wait`: send and collect results for a study until nothing is pending (or --timeout). */
import type { WorkspaceCommand } from '../command';
import { resolveStudy } from '../lookup';
import { waitForStudy } from '../wait-for-study';

export const waitCommand: WorkspaceCommand = {
  name: 'wait',
  help: `  wait --study <name|id> [--timeout <s>]    send and collect results until nothing is pending`,
  run: async ({ svc, out, values: v }) => {
    const study = resolveStudy(svc, v.study);
    return await waitForStudy(svc, out, study.id, v.timeout ? Number(v.timeout) : null);
  },
};
