/** Participants as the window lists and edits them, and each one's timeline. */
import type { Timeline } from '../../shared/contract/timeline.contract';
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
import type { Engine } from './engine.service';
import type { ServiceContext } from './service-context';
import { participantTimeline } from './timeline';

export interface ParticipantsService {
  /** One page of the study's participants, with recency as of `nowMs`. */
  participantPage(q: ParticipantQuery, nowMs: number): { rows: ParticipantRecord[]; total: number };
  participant(participantId: number, nowMs: number): ParticipantRecord | null;
  createParticipant(studyId: number, code: string, at: string): { id: number } | EditRefusal;
  renameParticipant(participantId: number, code: string): true | EditRefusal;
  setParticipantNotes(participantId: number, notes: string): true | EditRefusal;
  /** Links an existing service account; the participant's files waiting for an account are queued, and every queue looks now. */
  linkAccount(participantId: number, accountId: string, at: string): true | EditRefusal;
  /** The participant's measures by session with their baselines; null when there is no such participant. */
  timeline(participantId: number, baselineSessions: number): Timeline | null;
}

export const participantsService = (ctx: ServiceContext, engine: Engine): ParticipantsService => {
  const { db } = ctx;
  return {
    participantPage: (q, nowMs) => participantPage(db, q, nowMs),
    participant: (participantId, nowMs) => participantById(db, participantId, nowMs),
    createParticipant: (studyId, code, at) => createParticipant(db, studyId, code, at),
    renameParticipant: (participantId, code) => renameParticipant(db, participantId, code),
    setParticipantNotes: (participantId, notes) => setParticipantNotes(db, participantId, notes),
    linkAccount(participantId, accountId, at) {
      const r = linkAccount(db, participantId, accountId, at);
      if (r === true) engine.service.wake();
      return r;
    },
    timeline: (participantId, baselineSessions) => participantTimeline(db, participantId, baselineSessions),
  };
};
