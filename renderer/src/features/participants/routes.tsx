import { patterns, type FeatureRoute } from '../../app/paths';
import { ParticipantPage } from './ParticipantPage';
import { ParticipantsPage } from './ParticipantsPage';

export const participantRoutes: readonly FeatureRoute[] = [
  [patterns.participants, ParticipantsPage],
  [patterns.participantsFiltered, ParticipantsPage],
  [patterns.participant, ParticipantPage],
];
