/** `voicescope participant status|baseline`: a participant's status in the study, with its dates, and their baseline. */
import { PARTICIPANT_STATUSES, type ParticipantStatus } from '../../../shared/states';
import { isDate } from '../../../shared/visits';
import {
  EXIT,
  need,
  unknownCommand,
  UsageError,
  type CommandContext,
  type WorkspaceCommand,
} from '../command';
import { reportProblem, resolveStudy } from '../lookup';

const today = () => new Date().toISOString().slice(0, 10);

const find = async ({ svc, values: v }: CommandContext) => {
  const study = await resolveStudy(svc, v.study);
  const code = need(v.participant?.[0], 'participant');
  const p = (await svc.participantStatuses(study.id, Date.now()))?.find((x) => x.code === code);
  if (!p) throw new UsageError(`No participant "${code}" in study ${study.id}.`);
  return p;
};

const status = async (ctx: CommandContext): Promise<number> => {
  const { svc, out, values: v } = ctx;
  const p = await find(ctx);
  if (v.set === undefined) {
    const pv = (await svc.participantVisits(p.participantId, Date.now()))!;
    out.say(
      'participant',
      `${p.code}: ${p.status}${p.statusOn ? ` since ${p.statusOn}` : ''}${p.statusReason ? ` (${p.statusReason})` : ''}`,
      { participant: pv.status, history: pv.history },
    );
    for (const h of pv.history)
      out.say('history', `  ${h.on}  ${h.status}${h.reason ? ` (${h.reason})` : ''}`, { change: h });
    return EXIT.ok;
  }
  if (!(PARTICIPANT_STATUSES as readonly string[]).includes(v.set))
    throw new UsageError(`--set is one of ${PARTICIPANT_STATUSES.join(', ')}.`);
  const on = v.on ?? today();
  if (!isDate(on)) throw new UsageError('--on is a date, YYYY-MM-DD.');
  const r = await svc.setParticipantStatus(
    p.participantId,
    { status: v.set as ParticipantStatus, on, reason: v.reason },
    Date.now(),
  );
  if (!r.ok) return reportProblem(out, r.error);
  out.say('participant', `${p.code} is ${r.value.status} from ${on}.`, { participant: r.value });
  return EXIT.ok;
};

const baseline = async (ctx: CommandContext): Promise<number> => {
  const { svc, out, values: v } = ctx;
  const p = await find(ctx);
  if (v.clear !== true && v.date === undefined) throw new UsageError('Give --date YYYY-MM-DD or --clear.');
  const date = v.clear === true ? null : v.date!;
  if (date !== null && !isDate(date)) throw new UsageError('--date is a date, YYYY-MM-DD.');
  const r = await svc.setBaseline(p.participantId, date, Date.now());
  if (!r.ok) return reportProblem(out, r.error);
  const b = r.value.baseline;
  out.say(
    'participant',
    `${p.code}: baseline ${b ? `${b.date} (${b.source.replace('_', ' ')})` : 'none yet (no recording)'}.`,
    { participant: r.value },
  );
  return EXIT.ok;
};

export const participantCommand: WorkspaceCommand = {
  name: 'participant',
  help: `  participant status --study <s> --participant <code> [--set <enrolled|active|completed|withdrawn>
                     [--on YYYY-MM-DD] [--reason <text>]]
                                            show a participant's status and its history, or change it
                                            (a withdrawal needs --reason; --on defaults to today, UTC)
  participant baseline --study <s> --participant <code> (--date YYYY-MM-DD | --clear)
                                            set day 0 of their schedule, or go back to their first
                                            usable recording`,
  run: async (ctx) => {
    switch (ctx.sub) {
      case 'status':
        return status(ctx);
      case 'baseline':
        return baseline(ctx);
      default:
        throw unknownCommand('participant', ctx.sub);
    }
  },
};
