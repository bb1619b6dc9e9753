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
import { resolveStudy } from '../lookup';

const positiveInt = (v: string | undefined, flag: string): number => {
  const n = Number(need(v, flag));
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${flag} must be a whole number above 0.`);
  return n;
};

const VERB: Record<string, string> = {
  reassign: 'reassigned',
  exclude: 'excluded from analysis',
  restore: 'restored to analysis',
  delete: 'deleted (it was never sent)',
  'send-anyway': 'queued to be sent anyway',
  undo: 'undone',
};

const report = (
  { out }: CommandContext,
  what: string,
  subject: string,
  r: Result<CurationDone, ServiceProblem>,
): number => {
  if (!r.ok) {
    out.problem(r.error.message, r.error.action);
    return EXIT.refused;
  }
  out.say(
    'curated',
    `${subject} ${VERB[what]} (act ${r.value.act}; undo: voicescope curate undo --act ${r.value.act}).`,
    {
      act: r.value.act,
      warning: r.value.warning,
    },
  );
  if (r.value.warning && !out.json) out.say('warning', `Note: ${r.value.warning}`);
  return EXIT.ok;
};

const line = (a: CurationActView): string =>
  [
    `act ${a.id}`,
    a.at,
    a.who,
    a.act === 'undo' ? `undo of act ${a.undoes}` : a.act.replace('_', ' '),
    a.recordingId !== null ? `recording ${a.recordingId}` : '',
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
  curate undo --act <id> [--reason <text>]  undo an act (itself recorded as an act)
  curate history --recording <id> | --study <name|id>
                                            the acts, newest first: who, when, what, why`,
  run: async (ctx) => {
    const { svc, out, sub, values: v } = ctx;
    const reason = v.reason;
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
          const id = svc.participantOfRecordingStudy(recording, code);
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
      case 'undo': {
        const act = positiveInt(v.act, 'act');
        return report(ctx, 'undo', `Act ${act}`, svc.undoCuration(act, reason));
      }
      case 'history': {
        const acts =
          v.recording !== undefined
            ? svc.curationOfRecording(positiveInt(v.recording, 'recording'))
            : svc.curationOfStudy(resolveStudy(svc, v.study).id);
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
