/** `voicescope account`: the researcher's decision on an account request whose outcome is unknown. */
import { EXIT, need, UsageError, type WorkspaceCommand } from '../command';
import { resolveStudy } from '../lookup';

export const accountCommand: WorkspaceCommand = {
  name: 'account',
  help: `  account --study <name|id> --participant <code> --decision <retry|leave|link> [--account-id <id>]
                                            decide on an "account uncertain" participant: ask the service
                                            again (a second account may be created), leave it without an
                                            account (its waiting files are withdrawn), or link the account
                                            id you found`,
  run: async ({ svc, out, values: v }) => {
    const study = await resolveStudy(svc, v.study);
    const code = need(v.participant?.[0], 'participant');
    const d = need(v.decision, 'decision');
    if (d !== 'retry' && d !== 'leave' && d !== 'link')
      throw new UsageError('--decision must be retry, leave or link.');
    const p = (await svc.uncertainAccounts(study.id)).find((a) => a.participantCode === code);
    if (!p) {
      out.problem(
        `Participant ${code} has no account request waiting for a decision.`,
        `See voicescope status --study ${study.id}.`,
      );
      return EXIT.usage;
    }
    const at = new Date().toISOString();
    if (d === 'link') {
      const r = await svc.linkAccount(p.participantId, need(v['account-id'], 'account-id'), at);
      if (r !== true) {
        out.problem(
          r === 'account_taken'
            ? 'That account id belongs to another participant of this study.'
            : `The account could not be linked (${r.replace(/_/g, ' ')}).`,
          'Check the account id.',
        );
        return EXIT.refused;
      }
      out.say(
        'account',
        `Participant ${code} is linked to account ${v['account-id']}; its files are queued.`,
      );
      return EXIT.ok;
    }
    await svc.resolveUncertainAccount(p.participantId, d, at);
    if (d === 'retry') {
      const r = await svc.createAccounts(study.id, [code]);
      if (!r.ok) {
        out.problem(r.error.message, r.error.action);
        return EXIT.service;
      }
      if (r.value.created.length) {
        out.say('account', `Created a service account for ${code}; its files are queued.`);
        return EXIT.ok;
      }
      out.problem(
        `Still no account for ${code}.`,
        r.value.uncertain.length
          ? 'The outcome is unknown again; decide once more later.'
          : 'Try again later; its files wait.',
      );
      return EXIT.decide;
    }
    out.say('account', `Participant ${code} stays without an account; its waiting files were withdrawn.`);
    return EXIT.ok;
  },
};
