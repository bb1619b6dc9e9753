/** Participants as the window lists and edits them, each one's timeline, and uncertain account requests. */
import type { ApiError } from '../../shared/api/api-error';
import type { Recency } from '../../shared/recency';
import type { Timeline, TimelineMeasures } from '../../shared/contract/timeline.contract';
import { resolveUncertainAccount, uncertainAccountRows } from '../db/repos/account-intents.repo';
import {
  createParticipant,
  linkAccount,
  participantById,
  participantPage,
  renameParticipant,
  setParticipantNotes,
  type EditRefusal,
  type ParticipantQuery,
  type ParticipantRecord,
} from '../db/repos/participants.repo';
import { overdueParticipantIds, participantRecency } from '../design/recency';
import type { Engine } from './engine.service';
import type { ServiceContext } from './service-context';
import { refusalForRole } from './team-rights';
import { participantTimeline } from '../change/timeline';

export interface ParticipantsService {
  /** One page of the study's participants, with recency as of `nowMs`. */
  participantPage(q: ParticipantQuery, nowMs: number): Promise<{ rows: ParticipantView[]; total: number }>;
  participant(participantId: number, nowMs: number): Promise<ParticipantView | null>;
  createParticipant(studyId: number, code: string, at: string): Promise<{ id: number } | EditRefusal>;
  renameParticipant(participantId: number, code: string): Promise<true | EditRefusal>;
  setParticipantNotes(participantId: number, notes: string): Promise<true | EditRefusal>;
  /** Links an existing service account; the participant's files waiting for an account are queued, and every queue looks now. */
  linkAccount(participantId: number, accountId: string, at: string): Promise<true | EditRefusal>;
  /** The participant's measures by session with their baselines (k: the study's unless given); null when there is no such participant. */
  timeline(
    participantId: number,
    baselineSessions?: number,
    measures?: TimelineMeasures,
    includeAfterWithdrawal?: boolean,
  ): Promise<Timeline | null>;
  /** The study's participants whose account request has an unknown outcome ("account uncertain"). */
  uncertainAccounts(studyId: number): Promise<UncertainAccount[]>;
  /**
   * The researcher's decision on an uncertain account: `retry` lets the next account creation ask again
   * (a second account may be created); `leave` keeps the participant without an account. Linking an
   * account id found by other means is linkAccount. False when there is nothing to decide.
   */
  resolveUncertainAccount(participantId: number, decision: 'retry' | 'leave', at: string): Promise<boolean>;
}

/** A participant with their data recency against the study's schedule. */
export interface ParticipantView extends ParticipantRecord {
  readonly recency: Recency;
}

export interface UncertainAccount {
  readonly participantId: number;
  readonly participantCode: string;
  /** When the request was sent (workstation clock). */
  readonly requestedAt: string;
  readonly reason: string;
  readonly error: ApiError | null;
  /** 'leave': the researcher chose to leave the participant without an account. */
  readonly resolution: 'leave' | null;
}

export const participantsService = (ctx: ServiceContext, engine: Engine): ParticipantsService => {
  const { store } = ctx;
  const withRecency = async (p: ParticipantRecord, nowMs: number): Promise<ParticipantView> => ({
    ...p,
    recency: await participantRecency(store, p, nowMs),
  });
  return {
    async participantPage(q, nowMs) {
      const overdueIds = q.filter === 'overdue' ? await overdueParticipantIds(store, q.studyId, nowMs) : [];
      const page = await participantPage(store, { ...q, overdueIds }, nowMs);
      const rows: ParticipantView[] = [];
      for (const p of page.rows) rows.push(await withRecency(p, nowMs));
      return { rows, total: page.total };
    },
    async participant(participantId, nowMs) {
      const p = await participantById(store, participantId);
      return p && (await withRecency(p, nowMs));
    },
    createParticipant(studyId, code, at) {
      // Known to the log before it is written (main/privacy/log-facts.ts).
      ctx.logFacts.noteParticipantCodes([code]);
      return store.transaction((tx) => createParticipant(tx, studyId, code, at), { repeatable: true });
    },
    renameParticipant(participantId, code) {
      ctx.logFacts.noteParticipantCodes([code]);
      return store.transaction((tx) => renameParticipant(tx, participantId, code), { repeatable: true });
    },
    setParticipantNotes: (participantId, notes) => setParticipantNotes(store, participantId, notes),
    async linkAccount(participantId, accountId, at) {
      const r = await store.transaction((tx) => linkAccount(tx, participantId, accountId, at), {
        repeatable: true,
      });
      if (r === true) engine.service.wake();
      return r;
    },
    timeline: (participantId, baselineSessions, measures, includeAfterWithdrawal) =>
      participantTimeline(store, participantId, baselineSessions, measures, includeAfterWithdrawal),
    // The account link is the owner's alone on a team database: another member has none to decide on.
    uncertainAccounts: async (studyId) =>
      (refusalForRole(ctx.member, 'createAccounts') !== null
        ? []
        : await uncertainAccountRows(store, studyId)
      ).map((r) => {
        const u = r.uncertainty;
        return {
          participantId: r.id,
          participantCode: r.code,
          requestedAt: u.requestedAt,
          reason: u.reason,
          error: u.error,
          resolution: u.resolution,
        };
      }),
    resolveUncertainAccount: (participantId, decision, at) =>
      resolveUncertainAccount(store, participantId, decision, at),
  };
};
