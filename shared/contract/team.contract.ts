/**
 * Team studies in the window: which database the workstation works on (its own study file, or a team
 * study on a PostgreSQL server, as one member), the member's role, sites and the work it allows, the
 * study's sites, and the workstations connected to it. The password goes in once, to the key store; no
 * answer carries it back.
 */
import { z } from 'zod';
import { TEAM_ROLES, TEAM_WORK } from '../team';
import { action, NoInput, procedure } from '../rpc';
import { LIMITS, PLAIN, plainText, strict } from './bounds';
import { Id } from './views';

export const TeamSessionSchema = z.object({
  /** `local`: the workspace's own study file; `team`: a team study on a PostgreSQL server. */
  database: z.enum(['local', 'team']),
  /** The server's address without any password; null for the study file. */
  address: z.string().nullable(),
  login: z.string().nullable(),
  role: z.enum(TEAM_ROLES).nullable(),
  /** The work the member's role allows (everything on the study file): the window hides the rest. */
  allowed: z.array(z.enum(TEAM_WORK)),
  /** Why the team study chosen earlier could not be opened at start (the study file is open instead). */
  problem: z.string().nullable(),
});
export type TeamSession = z.infer<typeof TeamSessionSchema>;

export const TeamSiteSchema = z.object({ code: z.string(), name: z.string() });

export const WorkstationRowSchema = z.object({
  name: z.string(),
  login: z.string().nullable(),
  /** When it last said it is here, by the database's clock. */
  lastSeenAt: z.string(),
  /** Seen within the lease (it is running now). */
  here: z.boolean(),
  /** This study's recordings it holds the file of that are still waiting to be sent. */
  waiting: z.number(),
  /** This study's recordings it is sending now (its claim on the upload). */
  sending: z.number(),
});
export type WorkstationRow = z.infer<typeof WorkstationRowSchema>;

/** Everything the window shows comes from the database it works on: after a switch, all of it changes. */
const EVERYTHING = [
  'app',
  'team',
  'studies',
  'profiles',
  'participants',
  'recordings',
  'batches',
  'usage',
  'settings',
  'queue',
] as const;

export const teamContract = {
  'team.session': procedure(NoInput, TeamSessionSchema),
  /** The study's sites the member works at (every site for the owner and on the study file). */
  'team.sites': procedure(strict({ studyId: Id }), z.object({ sites: z.array(TeamSiteSchema) })),
  'team.workstations': procedure(
    strict({ studyId: Id }),
    z.object({ rows: z.array(WorkstationRowSchema), leaseSeconds: z.number() }),
  ),
  /** Checks the login on the team study and, when it may work there, works on it from now on. */
  'team.useDatabase': action(
    strict({
      address: plainText(LIMITS.url).min(1, 'Enter the database address.'),
      login: plainText(63).min(1, 'Enter your login.'),
      password: z
        .string()
        .min(1, 'Enter your password.')
        .max(LIMITS.apiKey)
        .regex(PLAIN, 'A password holds no control characters.'),
    }),
    TeamSessionSchema,
    EVERYTHING,
  ),
  /** Back to the workspace's own study file; the team study's password stays in the key store. */
  'team.useLocalStudy': action(NoInput, TeamSessionSchema, EVERYTHING),
} as const;
