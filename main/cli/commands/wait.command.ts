/**
 * `voicescope wait`: send and collect results for a study until nothing is pending (or --timeout). A batch
 * whose import stopped before its start is started first (main/cli/interrupted-import.ts).
 */
import type { WorkspaceCommand } from '../command';
import { resumeInterruptedImports } from '../interrupted-import';
import { resolveStudy } from '../lookup';
import { waitForStudy } from '../wait-for-study';

export const waitCommand: WorkspaceCommand = {
  name: 'wait',
  help: `  wait --study <name|id> [--timeout <s>]    send and collect results until nothing is pending`,
  run: async ({ svc, out, values: v }) => {
    const study = await resolveStudy(svc, v.study);
    await resumeInterruptedImports(svc, out, study.id);
    return await waitForStudy(svc, out, study.id, v.timeout ? Number(v.timeout) : null);
  },
};
