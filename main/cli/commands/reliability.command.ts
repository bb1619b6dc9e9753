/**
 * `voicescope reliability`: a study's settings for change statistics (k, the sessions a baseline needs;
 * each measure's test-retest reliability for the reliable change index) and a participant's change
 * statistics as the timeline gives them (docs/change.md).
 */
import { MEASURES } from '../../../shared/api/measures';
import { baselineRuleText } from '../../../shared/baseline';
import { CHANGE_VERDICT_LABEL } from '../../../shared/change';
import type { ChangeSettingsView } from '../../../shared/contract/reliability.contract';
import type { ChangeSettingsRefusal } from '../../services/change-settings.service';
import {
  EXIT,
  need,
  unknownCommand,
  UsageError,
  type CommandContext,
  type WorkspaceCommand,
} from '../command';
import { resolveStudy } from '../lookup';

const fmt = (x: number | null, digits = 3): string =>
  x === null ? '—' : Number(x.toFixed(digits)).toString();
const signed = (x: number | null, digits = 3): string =>
  x === null ? '—' : `${x > 0 ? '+' : ''}${fmt(x, digits)}`;

const REFUSED: Record<ChangeSettingsRefusal, string> = {
  no_study: 'There is no such study.',
  unknown_measure: 'No numeric measure has that key. List them with: voicescope reliability list --study <s>',
  out_of_range: 'A reliability is a number from 0 to 0.99; a baseline, 1 to 20 sessions.',
};

const show = (ctx: CommandContext, v: ChangeSettingsView | ChangeSettingsRefusal, said: string): number => {
  if (typeof v === 'string') {
    ctx.out.problem(REFUSED[v], 'Check the values and try again.');
    return EXIT.refused;
  }
  ctx.out.say('settings', `${said}Baseline: ${baselineRuleText(v.baselineRule)}, of each series.`, {
    settings: { studyId: v.studyId, baselineSessions: v.baselineSessions },
  });
  for (const m of v.measures)
    ctx.out.say(
      'reliability',
      `${m.key.padEnd(30)} r = ${m.r === null ? 'none (trend only, no reliable-change verdict)' : `${fmt(m.r, 2)} (${m.source === 'study' ? `set for this study${m.note ? `: ${m.note}` : ''}; default ${m.defaultR ?? 'none'}` : `default: ${m.group}`})`}`,
      { reliability: m },
    );
  return EXIT.ok;
};

const reliabilityNumber = (x: string | undefined): number => {
  const r = Number(need(x, 'r'));
  if (!Number.isFinite(r)) throw new UsageError('The reliability is a number from 0 to 0.99, e.g. 0.6.');
  return r;
};

const change = async (ctx: CommandContext, studyId: number): Promise<number> => {
  const code = need(ctx.values.participant?.[0], 'participant');
  const k = ctx.values['baseline-sessions'];
  if (k !== undefined && !/^\d+$/.test(k))
    throw new UsageError('--baseline-sessions takes a whole number of sessions (1 to 20).');
  const t = await ctx.svc.timelineByCode(studyId, code, k === undefined ? undefined : Number(k));
  if (!t) throw new UsageError(`No participant "${code}" in this study.`);
  ctx.out.say(
    'participant',
    `${t.code}: ${t.sessions.length} analysed sessions; baseline: ${k === undefined ? baselineRuleText(t.baselineRule) : `the first ${t.baselineSessions}`} of each series, once all are present.`,
    { participant: t.code, baselineSessions: t.baselineSessions },
  );
  for (const m of MEASURES)
    for (const s of t.measures.find((x) => x.key === m.key)?.series ?? []) {
      const c = s.change;
      if (!c) continue;
      const base = s.baseline
        ? `baseline ${fmt(s.baseline.mean)}${s.baseline.sd !== null ? ` ± ${fmt(s.baseline.sd)}` : ''}`
        : `no baseline yet (${s.baselinePresent} of ${t.baselineSessions} sessions)`;
      const figures =
        c.change === null
          ? ''
          : `; change ${signed(c.change)}${c.changeInSd !== null ? ` = ${signed(c.changeInSd, 2)} SD (${c.sdSource} SD)` : ' (no usable SD)'}${c.rci !== null ? `; RCI ${signed(c.rci, 2)} (r = ${fmt(c.reliability, 2)})` : ''}`;
      const trend = c.trendPerWeek !== null ? `; trend ${signed(c.trendPerWeek)}/week` : '';
      ctx.out.say(
        'change',
        `${m.key} ${s.apiVersion}: ${base}${figures}${trend}: ${CHANGE_VERDICT_LABEL[c.verdict]}`,
        {
          measure: m.key,
          apiVersion: s.apiVersion,
          baseline: s.baseline,
          baselinePresent: s.baselinePresent,
          change: c,
        },
      );
    }
  return EXIT.ok;
};

export const reliabilityCommand: WorkspaceCommand = {
  name: 'reliability',
  help: `  reliability list --study <s>             k and each measure's test-retest reliability (with its source)
  reliability set --study <s> <measure> <r> [--note <text>]
                                            the study's own reliability for a measure (0 to 0.99)
  reliability reset --study <s> <measure>   back to the documented default (or none)
  reliability baseline --study <s> <k|default>
                                            sessions a baseline needs (1 to 20; default 3)
  reliability change --study <s> --participant <code> [--baseline-sessions <k>]
                                            a participant's change statistics, as on the timeline`,
  run: async (ctx) => {
    const study = await resolveStudy(ctx.svc, ctx.values.study);
    const [a, b] = ctx.rest;
    switch (ctx.sub) {
      case 'list':
        return show(ctx, (await ctx.svc.changeSettings(study.id)) ?? 'no_study', '');
      case 'set': {
        const key = need(a, 'measure');
        return show(
          ctx,
          await ctx.svc.setReliability(study.id, key, reliabilityNumber(b), ctx.values.note ?? ''),
          `${key}: reliability set. `,
        );
      }
      case 'reset': {
        const key = need(a, 'measure');
        return show(ctx, await ctx.svc.resetReliability(study.id, key), `${key}: back to the default. `);
      }
      case 'baseline': {
        const k = need(a, 'k');
        if (k !== 'default' && !/^\d+$/.test(k))
          throw new UsageError('Give the sessions a baseline needs (1 to 20), or "default".');
        return show(ctx, await ctx.svc.setBaselineSessions(study.id, k === 'default' ? null : Number(k)), '');
      }
      case 'change':
        return await change(ctx, study.id);
      default:
        throw unknownCommand('reliability', ctx.sub);
    }
  },
};
