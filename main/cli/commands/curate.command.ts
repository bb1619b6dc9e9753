/**
 * `voicescope curate`: mend a study's recordings, each act kept with who (this computer's user), when,
 * why, before and after, and written to the audit log (docs/cli.md, "Curation"). Refusals exit 3.
 */
import type { CurationActView, CurationDone } from '../../../shared/curation';
import type { Result } from '../../../shared/result';
import type { ServiceProblem } from '../../services/service-context';
import {
  EXIT,
  need,
  UsageError,
  unknownCommand,
  type CommandContext,
  type WorkspaceCommand,
} from '../command';
import { reportProblem, resolveStudy } from '../lookup';

const positiveInt = (v: string | undefined, flag: string): number => {
  const n = Number(need(v, flag));
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${flag} must be a whole number above 0.`);
  return n;
};

const participantOrThrow = async (
  svc: CommandContext['svc'],
  studyId: number,
  code: string,
): Promise<number> => {
  const id = await svc.participantIdOfStudy(studyId, code);
  if (id === null) throw new UsageError(`There is no participant ${code} in this study.`);
  return id;
};

const VERB: Record<string, string> = {
  reassign: 'reassigned',
  exclude: 'excluded from analysis',
  restore: 'restored to analysis',
  delete: 'deleted (it was never sent)',
  'send-anyway': 'queued to be sent anyway',
  undo: 'undone',
  dismiss: 'dismissed',
};

const report = async (
  { out }: CommandContext,
  what: string,
  subject: string,
  answer: Promise<Result<CurationDone, ServiceProblem>>,
): Promise<number> => {
  const r = await answer;
  if (!r.ok) {
    out.problem(r.error.message, r.error.action);
    return EXIT.refused;
  }
  out.say(
    'curated',
    `${subject} ${VERB[what] ?? what} (act ${r.value.act}; undo: voicescope curate undo --act ${r.value.act}).`,
    {
      act: r.value.act,
      warning: r.value.warning,
    },
  );
  if (r.value.warning && !out.json) out.say('warning', `Note: ${r.value.warning}`);
  return EXIT.ok;
};

const mergeLine = (a: CurationActView): string => {
  const m = a.after as { from?: { code?: string }; into?: { code?: string }; recordings?: unknown[] } | null;
  return `${m?.from?.code ?? '?'} into ${m?.into?.code ?? '?'} (${m?.recordings?.length ?? 0} recordings)`;
};

const line = (a: CurationActView): string =>
  [
    `act ${a.id}`,
    a.at,
    a.who,
    a.act === 'undo' ? `undo of act ${a.undoes}` : a.act.replace('_', ' '),
    a.recordingId !== null ? `recording ${a.recordingId}` : '',
    a.act === 'merge' ? mergeLine(a) : '',
    a.reason ? `"${a.reason}"` : '',
    a.undoneBy !== null ? `(undone by act ${a.undoneBy})` : '',
  ]
    .filter(Boolean)
    .join('  ');

export const curateCommand: WorkspaceCommand = {
  name: 'curate',
  help: `  curate reassign --recording <id> [--participant <code>] [--session <label|"">] [--reason <text>]
                                            file a recording under another participant and/or session
                                            (after upload: the service analysed it under the first account;
                                            the recording's provenance says so)
  curate exclude --recording <id> --reason <text>
                                            exclude a recording from analysis (it stays in exports, marked)
  curate restore --recording <id> [--reason <text>]
  curate delete --recording <id> [--reason <text>]
                                            delete a recording that was never sent (refused, held, pending)
  curate send-anyway --recording <id> --reason <text>
                                            send a locally refused file anyway where the refusal was a
                                            judgement (speech estimate, borderline); never past the
                                            service's hard limits (size, duration, format)
  curate merge --study <name|id> --from <code> --into <code> --reason <text> [--dry-run]
                                            merge a participant entered twice: every recording of
                                            --from moves to --into (sessions kept; refused while both
                                            have a session label); --from is kept, marked merged;
                                            --dry-run says what would happen and changes nothing
  curate dismiss --recording <id> --reason <text>
                                            set a needs-you item aside (a refused file, a held
                                            duplicate, a failed analysis; not an unknown upload
                                            outcome): voicescope status lists it as dismissed
  curate undo --act <id> [--reason <text>]  undo an act (itself recorded as an act)
  curate history --recording <id> | --study <name|id> [--participant <code>]
                                            the acts, newest first: who, when, what, why`,
  run: async (ctx) => {
    const { svc, out, sub, values: v } = ctx;
    const reason = v.reason;
    const refused = v['dry-run'] ? null : svc.refusalForRole('curate');
    if (refused) return reportProblem(out, refused);
    switch (sub) {
      case 'reassign': {
        const recording = positiveInt(v.recording, 'recording');
        const code = v.participant?.[0];
        const session = v.session?.[0];
        if (code === undefined && session === undefined)
          throw new UsageError(
            'Give --participant <code>, --session <label> (or --session "" to clear it), or both.',
          );
        let participantId: number | undefined;
        if (code !== undefined) {
          const id = await svc.participantOfRecordingStudy(recording, code);
          if (id === null) {
            out.problem(
              `There is no participant ${code} in this recording's study.`,
              'Check the code (voicescope status lists the participants), or check the recording number.',
            );
            return EXIT.refused;
          }
          participantId = id;
        }
        const to = {
          ...(participantId !== undefined ? { participantId } : {}),
          ...(session !== undefined ? { session: session === '' ? null : session } : {}),
        };
        return report(
          ctx,
          'reassign',
          `Recording ${recording}`,
          svc.reassignRecording(recording, to, reason),
        );
      }
      case 'exclude': {
        const recording = positiveInt(v.recording, 'recording');
        return report(
          ctx,
          'exclude',
          `Recording ${recording}`,
          svc.excludeRecording(recording, need(reason, 'reason')),
        );
      }
      case 'restore': {
        const recording = positiveInt(v.recording, 'recording');
        return report(ctx, 'restore', `Recording ${recording}`, svc.restoreRecording(recording, reason));
      }
      case 'delete': {
        const recording = positiveInt(v.recording, 'recording');
        return report(
          ctx,
          'delete',
          `Recording ${recording}`,
          svc.deleteNeverSentRecording(recording, reason),
        );
      }
      case 'send-anyway': {
        const recording = positiveInt(v.recording, 'recording');
        return report(
          ctx,
          'send-anyway',
          `Recording ${recording}`,
          svc.sendRefusedAnyway(recording, need(reason, 'reason')),
        );
      }
      case 'dismiss': {
        const recording = positiveInt(v.recording, 'recording');
        return report(
          ctx,
          'dismiss',
          `The needs-you item of recording ${recording}`,
          svc.dismissNeedsYouItem(recording, need(reason, 'reason')),
        );
      }
      case 'undo': {
        const act = positiveInt(v.act, 'act');
        return report(ctx, 'undo', `Act ${act}`, svc.undoCuration(act, reason));
      }
      case 'merge': {
        const study = await resolveStudy(svc, v.study);
        const fromCode = need(v.from, 'from');
        const intoCode = need(v.into, 'into');
        const ids = await Promise.all([fromCode, intoCode].map((c) => svc.participantIdOfStudy(study.id, c)));
        const missing = [fromCode, intoCode].filter((_, i) => ids[i] === null);
        if (missing.length > 0) {
          out.problem(
            `There is no participant ${missing.join(' or ')} in study ${study.name}.`,
            'Check the codes (voicescope status lists the participants).',
          );
          return EXIT.refused;
        }
        const [fromId, intoId] = ids as [number, number];
        if (v['dry-run']) {
          const p = await svc.previewMerge(fromId, intoId);
          if (!p.ok) {
            out.problem(p.error.message, p.error.action);
            return EXIT.refused;
          }
          const m = p.value;
          out.say(
            'merge',
            [
              `Merging ${fromCode} into ${intoCode} would move ${m.recordings} recording${m.recordings === 1 ? '' : 's'}`,
              m.sent > 0 ? ` (${m.sent} analysed under ${fromCode}'s account)` : '',
              '.',
              m.duplicates.length > 0
                ? ` Same audio under both: ${m.duplicates.map((d) => `${d.from} and ${d.into}`).join('; ')}.`
                : '',
              m.attributeConflicts.length > 0
                ? ` ${intoCode}'s ${m.attributeConflicts.map((c) => c.key).join(', ')} kept.`
                : '',
              m.refusal ? ` It cannot be done: ${m.refusal}` : ' Nothing was changed (--dry-run).',
            ].join(''),
            { ...m },
          );
          return m.refusal ? EXIT.refused : EXIT.ok;
        }
        return report(
          ctx,
          `merged into ${intoCode}`,
          `Participant ${fromCode}`,
          svc.mergeParticipants(fromId, intoId, need(reason, 'reason')),
        );
      }
      case 'history': {
        const code = v.participant?.[0];
        const acts =
          v.recording !== undefined
            ? await svc.curationOfRecording(positiveInt(v.recording, 'recording'))
            : code !== undefined
              ? await svc.curationOfParticipant(
                  await participantOrThrow(svc, (await resolveStudy(svc, v.study)).id, code),
                )
              : await svc.curationOfStudy((await resolveStudy(svc, v.study)).id);
        if (out.json) for (const a of acts) out.say('act', line(a), { ...a });
        else if (acts.length === 0) out.say('history', 'No curation acts.');
        else for (const a of acts) out.say('act', line(a));
        return EXIT.ok;
      }
      default:
        throw unknownCommand('curate', sub);
    }
  },
};
