/** Studies: a name, the service profile its recordings go to, and how often participants are expected to record. */
import { z } from 'zod';
import { ApiVersion } from '../api/vocabulary';
import { nameText, strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';
import { Id } from './views';

export const StudyViewSchema = z.object({
  id: Id,
  name: z.string(),
  profileId: Id.nullable(),
  profileName: z.string().nullable(),
  apiVersion: ApiVersion.nullable(),
  /** Results of this study's profile are simulated (built-in sandbox). */
  simulated: z.boolean(),
  /** Expected days between a participant's sessions; drives "overdue". */
  sessionIntervalDays: z.int().min(1).max(365),
  participants: z.number(),
  recordings: z.number(),
  completedRecordings: z.number(),
  /** Recordings needing the researcher: refused, rejected, uncertain, duplicates held. */
  needsAttention: z.number(),
  overdueParticipants: z.number(),
  lastRecordingAt: z.string().nullable(),
  createdAt: z.string(),
});
export type StudyView = z.infer<typeof StudyViewSchema>;

const StudyName = nameText();
const Interval = z.int().min(1).max(365);

export const studiesContract = {
  'studies.list': procedure(NoInput, z.array(StudyViewSchema)),
  'studies.get': procedure(strict({ studyId: Id }), StudyViewSchema),
  'studies.create': action(
    strict({ name: StudyName, profileId: Id, sessionIntervalDays: Interval.optional() }),
    StudyViewSchema,
    ['studies.list'],
  ),
  'studies.update': action(
    strict({ studyId: Id, name: StudyName.optional(), sessionIntervalDays: Interval.optional() }),
    StudyViewSchema,
    ['studies.get', 'studies.list', 'participants.page'],
  ),
} as const;
