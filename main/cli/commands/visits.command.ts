/**
 * `voicescope visits`: the study's design (period, time zone, visit schedule), each recording's visit
 * and where it came from, the researcher's override, every expected visit with its missing-data code,
 * and the completeness table.
 */
import { missingReason, MISSING_REASONS } from '../../../shared/missing-data';
import { isDate } from '../../../shared/visits';
import type { VisitInput } from '../../db/repos/study-design.repo';
import {
  EXIT,
  need,
  unknownCommand,
  UsageError,
  type CommandContext,
  type WorkspaceCommand,
} from '../command';
import { reportProblem, resolveStudy } from '../lookup';

const dateOption = (v: string | undefined, flag: string): string | null => {
  if (v === undefined || v === '' || v === 'none') return null;
  if (!isDate(v)) throw new UsageError(`--${flag} must be a date, YYYY-MM-DD (or "none").`);
  return v;
};

/** `Name:targetDay[:before[:after]]`, e.g. `Week 1:7:2:2`. */
export const parseVisitSpec = (spec: string): VisitInput => {
  const parts = spec.split(':');
  const [name, ...nums] = parts;
  const ints = nums.map((n) => (/^-?\d+$/.test(n.trim()) ? Number(n) : NaN));
  if (!name?.trim() || ints.length < 1 || ints.length > 3 || ints.some((n) => !Number.isInteger(n)))
    throw new UsageError(
      `--visit "${spec}" is not Name:targetDay[:before[:after]] (e.g. "Week 1:7:2:2", whole days).`,
    );
  const [targetDay, before = 0, after = before] = ints as [number, number?, number?];
  return { name: name.trim(), targetDay, windowBefore: before, windowAfter: after };
};

const show = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const study = await resolveStudy(svc, v.study);
  const d = (await svc.studyDesign(study.id))!;
  out.say(
    'design',
    `Study ${study.id} "${study.name}": ${d.startDate ?? 'open start'} to ${d.endDate ?? 'open end'}, days counted in ${d.timeZone}.`,
    { design: d },
  );
  if (d.visits.length === 0)
    out.say(
      'visit',
      'No visit schedule yet. Set one with: voicescope visits set --study … --visit "Baseline:0:0:2" …',
    );
  for (const x of d.visits)
    out.say(
      'visit',
      `${x.position}. ${x.name}  day ${x.targetDay}, window -${x.windowBefore}/+${x.windowAfter} days`,
      { visit: x },
    );
  return EXIT.ok;
};

const set = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const study = await resolveStudy(svc, v.study);
  const specs = v.visit ?? [];
  if (specs.length === 0)
    throw new UsageError('Give the schedule with one --visit "Name:day[:before[:after]]" per visit.');
  const r = await svc.setVisitSchedule(study.id, specs.map(parseVisitSpec));
  if (!r.ok) return reportProblem(out, r.error);
  out.say('design', `The schedule of study ${study.id} has ${r.value.visits.length} visits.`, {
    design: r.value,
  });
  return EXIT.ok;
};

const period = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const study = await resolveStudy(svc, v.study);
  const d = (await svc.studyDesign(study.id))!;
  const r = await svc.setStudyPeriod(study.id, {
    startDate: v.from === undefined ? d.startDate : dateOption(v.from, 'from'),
    endDate: v.to === undefined ? d.endDate : dateOption(v.to, 'to'),
    timeZone: v.tz ?? d.timeZone,
  });
  if (!r.ok) return reportProblem(out, r.error);
  out.say(
    'design',
    `Study ${study.id} runs ${r.value.startDate ?? 'from an open start'} to ${r.value.endDate ?? 'an open end'}; days counted in ${r.value.timeZone}.`,
    { design: r.value },
  );
  return EXIT.ok;
};

const participantOf = async (ctx: CommandContext, studyId: number) => {
  const code = ctx.values.participant?.[0];
  if (code === undefined) return null;
  const p = (await ctx.svc.participantStatuses(studyId, Date.now()))?.find((x) => x.code === code);
  if (!p) throw new UsageError(`No participant "${code}" in this study.`);
  return p;
};

const list = async (ctx: CommandContext): Promise<number> => {
  const { svc, out, values: v } = ctx;
  const study = await resolveStudy(svc, v.study);
  const only = await participantOf(ctx, study.id);
  const statuses = only ? [only] : ((await svc.participantStatuses(study.id, Date.now())) ?? []);
  for (const p of statuses) {
    const pv = (await svc.participantVisits(p.participantId, Date.now()))!;
    const base = pv.status.baseline;
    out.say(
      'participant',
      `${p.code}  ${p.status}${p.statusOn ? ` since ${p.statusOn}` : ''}  baseline ${base ? `${base.date} (${base.source.replace('_', ' ')})` : 'none yet'}`,
      { participant: pv.status },
    );
    for (const r of pv.recordings)
      out.say(
        'recording',
        `  #${r.recordingId}  ${r.date}  ${r.session ?? '-'}  → ${r.visit ?? 'no visit'} (${r.source}${r.daysSinceBaseline === null ? '' : `, day ${r.daysSinceBaseline}`})${r.usable ? '' : r.reason ? `  ${missingReason(r.reason).code} ${r.detail ?? ''}` : ''}`,
        { participant: p.code, recording: r },
      );
  }
  return EXIT.ok;
};

const assign = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const study = await resolveStudy(svc, v.study);
  const id = Number(need(v.recording, 'recording'));
  if (!Number.isInteger(id) || id < 1) throw new UsageError('--recording is a recording number.');
  const name = v.visit?.[0];
  const choices = [name !== undefined, v['no-visit'] === true, v.clear === true].filter(Boolean).length;
  if (choices !== 1) throw new UsageError('Give one of --visit <name>, --no-visit or --clear.');
  let target: number | null | 'clear' = null;
  if (v.clear) target = 'clear';
  else if (name !== undefined) {
    const x = (await svc.studyDesign(study.id))!.visits.find(
      (z) => z.name.toLowerCase() === name.trim().toLowerCase(),
    );
    if (!x)
      throw new UsageError(
        `No visit "${name}" in the schedule. See: voicescope visits show --study ${study.id}`,
      );
    target = x.id;
  }
  const r = await svc.setRecordingVisit(id, target, Date.now());
  if (!r.ok) return reportProblem(out, r.error);
  out.say(
    'recording',
    `Recording ${id} → ${r.value.visit ?? 'no visit'} (${r.value.source === 'researcher' ? 'set by you' : `by ${r.value.source}`}).`,
    { recording: r.value },
  );
  return EXIT.ok;
};

const missing = async (ctx: CommandContext): Promise<number> => {
  const { svc, out, values: v } = ctx;
  const study = await resolveStudy(svc, v.study);
  const only = await participantOf(ctx, study.id);
  const l = (await svc.visitLedger(study.id, Date.now()))!;
  for (const r of l.rows) {
    if (only && r.participantId !== only.participantId) continue;
    const code = r.reason === null ? null : missingReason(r.reason).code;
    out.say(
      'visit',
      `${r.participant}  ${r.visit.name}  ${code === null ? `recording ${r.recording}` : `${code}${r.detail ? ` (${r.detail})` : ''}${r.recording ? ` recording ${r.recording}` : ''}`}`,
      {
        participant: r.participant,
        visit: r.visit.name,
        visitIndex: r.visit.position,
        recording: r.recording,
        missingReason: code,
        missingDetail: r.detail,
      },
    );
  }
  return EXIT.ok;
};

const completeness = async ({ svc, out, values: v }: CommandContext): Promise<number> => {
  const study = await resolveStudy(svc, v.study);
  const c = (await svc.completeness(study.id, Date.now()))!;
  const codes = MISSING_REASONS.map((m) => m.code);
  out.say(
    'completeness',
    `Completeness of study ${study.id} on ${c.today} (${c.participants} participants)\nvisit\texpected\tpresent\t${codes.join('\t')}`,
    { today: c.today, participants: c.participants },
  );
  for (const line of c.lines)
    out.say(
      'completeness',
      `${line.visit}\t${line.expected}\t${line.present}\t${MISSING_REASONS.map((m) => line.missing[m.reason] ?? 0).join('\t')}`,
      { line },
    );
  return EXIT.ok;
};

export const visitsCommand: WorkspaceCommand = {
  name: 'visits',
  help: `  visits show --study <name|id>             the study's period, time zone and visit schedule
  visits set --study <s> --visit "Name:day[:before[:after]]" …
                                            replace the schedule (target day from each participant's
                                            baseline, window in days before and after)
  visits period --study <s> [--from YYYY-MM-DD|none] [--to YYYY-MM-DD|none] [--tz <zone>]
                                            the study's start, end and the zone its days are counted in
  visits list --study <s> [--participant <code>]
                                            each recording's visit and where it came from
  visits assign --study <s> --recording <n> (--visit <name> | --no-visit | --clear)
                                            override a recording's visit, or go back to the rules
  visits missing --study <s> [--participant <code>]
                                            every expected visit: its recording or missing-data code
  visits completeness --study <s>           visits x missing-data codes`,
  run: async (ctx) => {
    switch (ctx.sub) {
      case 'show':
        return show(ctx);
      case 'set':
        return set(ctx);
      case 'period':
        return period(ctx);
      case 'list':
        return list(ctx);
      case 'assign':
        return assign(ctx);
      case 'missing':
        return missing(ctx);
      case 'completeness':
        return completeness(ctx);
      default:
        throw unknownCommand('visits', ctx.sub);
    }
  },
};
