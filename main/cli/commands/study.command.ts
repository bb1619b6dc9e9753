/** `voicescope study create|list`: studies, each tied to one service profile. */
import { EXIT, need, unknownCommand, type CommandContext, type WorkspaceCommand } from '../command';
import { reportProblem, resolveProfile } from '../lookup';

const create = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const p = await resolveProfile(svc, v.profile);
  const r = await svc.createStudy({ name: need(v.name, 'name'), profileId: p.id });
  if (!r.ok) return reportProblem(out, r.error);
  out.say('study', `Study ${r.value.id} "${r.value.name}" created.`, { study: r.value });
  return EXIT.ok;
};

const list = async ({ svc, out }: CommandContext): Promise<number> => {
  for (const s of await svc.listStudies())
    out.say('study', `${s.id}  ${s.name}  ${s.participants} participants, ${s.recordings} recordings`, {
      study: s,
    });
  return EXIT.ok;
};

export const studyCommand: WorkspaceCommand = {
  name: 'study',
  help: `  study create --name <n> --profile <name|id>
  study list`,
  run: async (ctx) => {
    switch (ctx.sub) {
      case 'create':
        return create(ctx);
      case 'list':
        return list(ctx);
      default:
        throw unknownCommand('study', ctx.sub);
    }
  },
};
