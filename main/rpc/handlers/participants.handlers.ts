import { explainApiError } from '../../../shared/api/api-error-explained';
import type { participantsContract } from '../../../shared/contract/participants.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import type { EditRefusal } from '../../db/repos/participants.repo';
import type { ParticipantView } from '../../services/participants.service';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

const refusal = (r: EditRefusal, detail: { code?: string; accountId?: string }) => {
  switch (r) {
    case 'not_found':
      return notFound('participant');
    case 'code_taken':
      return err(
        appError(
          'CONFLICT',
          `The code "${detail.code}" is already used in this study.`,
          'Choose another code, or open the existing participant.',
        ),
      );
    case 'account_taken':
      return err(
        appError(
          'CONFLICT',
          `The account ${detail.accountId} is already linked to another participant of this study.`,
          'Check the account id; one account belongs to one participant.',
        ),
      );
    case 'has_account':
      return err(
        appError(
          'CONFLICT',
          'This participant already has a service account; linking another would split their results across two accounts.',
          'Create a new participant for the other account instead.',
        ),
      );
  }
};

const row = ({ studyId: _s, status: _t, lastUsableAt: _u, ...r }: ParticipantView) => r;

export const participantsHandlers = (d: HostDeps): HandlersOf<typeof participantsContract> => {
  const { service } = d;
  const get = async (id: number) => {
    const p = await service.participant(id, d.now());
    return p ? ok(row(p)) : notFound('participant');
  };
  return {
    'participants.page': async (q) => {
      const page = await service.participantPage(q, d.now());
      return ok({ rows: page.rows.map(row), total: page.total });
    },
    'participants.get': async ({ participantId }) => {
      const p = await service.participant(participantId, d.now());
      return p ? ok({ ...row(p), studyId: p.studyId }) : notFound('participant');
    },
    'participants.create': async ({ studyId, code }) => {
      const r = await service.createParticipant(studyId, code, new Date(d.now()).toISOString());
      return typeof r === 'string'
        ? r === 'not_found'
          ? notFound('study')
          : refusal(r, { code })
        : get(r.id);
    },
    'participants.rename': async ({ participantId, code }) => {
      const r = await service.renameParticipant(participantId, code);
      return r === true ? get(participantId) : refusal(r, { code });
    },
    'participants.setNotes': async ({ participantId, notes }) => {
      const r = await service.setParticipantNotes(participantId, notes);
      return r === true ? get(participantId) : refusal(r, {});
    },
    'participants.linkAccount': async ({ participantId, accountId }) => {
      // The participant's files waiting for an account are queued now (and the queues woken).
      const r = await service.linkAccount(participantId, accountId, new Date(d.now()).toISOString());
      return r === true ? get(participantId) : refusal(r, { accountId });
    },
    async 'participants.createAccounts'({ studyId, codes }) {
      const r = await service.createAccounts(studyId, codes);
      if (!r.ok) return fromProblem(r.error);
      return ok({
        created: [...r.value.created],
        failed: r.value.failed.map((f) => ({
          ...f,
          ...(({ summary, action }) => ({ summary, action }))(explainApiError(f.error)),
        })),
        uncertain: r.value.uncertain.map((f) => ({
          ...f,
          summary: 'The service may have created the account, but its answer was lost.',
          action: 'Decide below: ask again, link the account id if you find it, or leave it.',
        })),
        possibleOrphans: r.value.possibleOrphans,
      });
    },
    'participants.uncertainAccounts': async ({ studyId }) => ok(await service.uncertainAccounts(studyId)),
    async 'participants.resolveUncertainAccount'({ participantId, decision }) {
      const at = new Date(d.now()).toISOString();
      const p = await service.participant(participantId, d.now());
      if (!p) return notFound('participant');
      const resolved = await service.resolveUncertainAccount(participantId, decision, at);
      if (resolved && decision === 'retry') {
        const r = await service.createAccounts(p.studyId, [p.code]);
        if (!r.ok) return fromProblem(r.error);
      }
      return ok({ resolved });
    },
  };
};
