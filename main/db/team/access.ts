/**
 * Who may read and write what in a team study, table by table: the one place the access rule is
 * written (policies.ts turns it into GRANTs and row-level security policies).
 *
 * The rule: a row that belongs to a participant belongs to that participant's site, and a member sees
 * and changes only the rows of the sites granted to them (`team_member_sites`); the owner sees every
 * site. A recording's rows follow the recording, the recording follows its participant, and the
 * participant carries the site, so each policy asks the table its row hangs from (which is itself
 * guarded) whether the row is visible. Study-wide rows (the design, batches, settings) are read by
 * every member of the study and written by the owner (batches by coordinators too).
 *
 * Who sends: the owner's and coordinators' workstations run the engine (create participants' service
 * accounts, upload, poll), each for the rows it reaches, so coordinators read and write a participant's
 * service account (`senderOnly`) at their sites only; analysts and monitors never send and never see
 * it. What stays the owner's alone: the profiles' key references (each workstation keeps its own key,
 * docs/team.md) and everything the owner designs. The participant-to-account link FILE of an export
 * is the owner's too: coordinators do not export, and analysts cannot read the account columns.
 */
import type { TeamRole } from '../../../shared/team';

/** Which rows of a table a member (other than the owner) may reach. */
export type Reach =
  /** Rows of the sites granted: the SQL condition on the table's row (`t` is the table's name). */
  | { readonly kind: 'site'; readonly rule: string }
  /** Study-wide rows: every member of a study reads them; `rule` limits them to the member's studies. */
  | { readonly kind: 'study'; readonly rule: string };

export interface TableAccess {
  readonly table: string;
  readonly reach: Reach;
  /** Roles, besides the owner, that insert, update and delete the rows they reach. */
  readonly writers: readonly TeamRole[];
  /**
   * Roles, besides the owner, that add rows meeting `rule`, beyond what they may write: the audit log,
   * which every member's acts extend; the engine's events of no study.
   */
  readonly appenders?: { readonly roles: readonly TeamRole[]; readonly rule: string };
  /** Columns only the owner reads and writes: key references. */
  readonly ownerOnly?: readonly string[];
  /**
   * Columns only the roles that send (the owner and `SENDING_ROLES`) read and write: a participant's
   * service account, which the engine creates, sends under and resolves.
   */
  readonly senderOnly?: readonly string[];
  /** Columns analysts do not read (they could name a person): notes, file paths. */
  readonly identifying?: readonly string[];
  /** The rows writers may insert, change and delete, when fewer than those they reach (`t` is the table's name). */
  readonly writeRule?: string;
}

/** The participant's site, granted to the member (the owner is granted every site by its own policy). */
const SITE = (t: string) => `team_sees_site(${t}.study_id, ${t}.site_code)`;
/** The row's participant is one the member sees. */
const OF_PARTICIPANT = (t: string) =>
  `EXISTS (SELECT 1 FROM participants p WHERE p.id = ${t}.participant_id)`;
/** The row's recording is one the member sees. */
const OF_RECORDING = (t: string) => `EXISTS (SELECT 1 FROM recordings r WHERE r.id = ${t}.recording_id)`;
const OF_STUDY = (t: string) => `team_sees_study(${t}.study_id)`;

const site = (rule: (t: string) => string) => (t: string) => ({ kind: 'site' as const, rule: rule(t) });
const study = (rule: (t: string) => string) => (t: string) => ({ kind: 'study' as const, rule: rule(t) });
const EVERY = () => 'true';

const table = (
  name: string,
  reach: (t: string) => Reach,
  writers: readonly TeamRole[],
  columns: Pick<TableAccess, 'ownerOnly' | 'senderOnly' | 'identifying' | 'writeRule' | 'appenders'> = {},
): TableAccess => ({ table: name, reach: reach(name), writers, ...columns });

const COORDINATOR: readonly TeamRole[] = ['coordinator'];
/** The roles, besides the owner, whose workstations run the engine: create accounts, upload, poll. */
export const SENDING_ROLES: readonly TeamRole[] = COORDINATOR;
const OWNER_ONLY: readonly TeamRole[] = [];
const EVERY_MEMBER: readonly TeamRole[] = ['coordinator', 'analyst', 'monitor'];

/** Every table of a study database (schema 220) but its version, with its access. */
export const STUDY_TABLES: readonly TableAccess[] = [
  table('participants', site(SITE), COORDINATOR, {
    senderOnly: ['account_id', 'account_created_at', 'account_requested_at', 'account_uncertain'],
    identifying: ['notes'],
  }),
  table('participant_status_history', site(OF_PARTICIPANT), COORDINATOR),
  table('participant_attributes', site(OF_PARTICIPANT), COORDINATOR),
  table('recordings', site(OF_PARTICIPANT), COORDINATOR, { identifying: ['source_path', 'upload_path'] }),
  ...[
    'measure_values',
    'analyses',
    'unlisted_analyses',
    'data_quality_flags',
    'recording_visits',
    'local_measurements',
    'local_measures',
    'local_pitch_tracks',
    'needs_you_dismissals',
  ].map((t) =>
    table(
      t,
      site(OF_RECORDING),
      COORDINATOR,
      t === 'local_measurements' ? { identifying: ['audio_path'] } : {},
    ),
  ),
  table('recording_files', site(OF_RECORDING), COORDINATOR, { identifying: ['path'] }),
  table(
    'curation_acts',
    site(
      (t) =>
        `CASE WHEN ${t}.participant_id IS NOT NULL THEN ${OF_PARTICIPANT(t)} ` +
        `WHEN ${t}.recording_id IS NOT NULL THEN ${OF_RECORDING(t)} ELSE false END`,
    ),
    COORDINATOR,
  ),
  table(
    'audit_log',
    site((t) => `${t}.site_code IS NOT NULL AND ${SITE(t)}`),
    OWNER_ONLY,
    {
      // Every member's acts are recorded, under their own login: an entry about a participant of a
      // site they are granted, or a study-wide one of a study they belong to. Nobody changes one.
      appenders: {
        roles: ['coordinator', 'analyst', 'monitor'],
        rule:
          `audit_log.member = current_user AND CASE WHEN audit_log.site_code IS NOT NULL ` +
          `THEN ${SITE('audit_log')} ELSE audit_log.study_id IS NOT NULL AND ${OF_STUDY('audit_log')} END`,
      },
    },
  ),
  table(
    'event_log',
    // A recording's event follows the recording; a study-wide one (a batch imported) the study.
    site(
      (t) =>
        `CASE WHEN ${t}.recording_id IS NOT NULL THEN ${OF_RECORDING(t)} ` +
        `ELSE ${t}.study_id IS NOT NULL AND ${OF_STUDY(t)} END`,
    ),
    COORDINATOR,
    {
      // A sending workstation's engine also records what the service said of the whole profile (its
      // usage read): an event of no study, which only the owner reads back.
      appenders: {
        roles: SENDING_ROLES,
        rule: 'event_log.study_id IS NULL AND event_log.recording_id IS NULL',
      },
    },
  ),
  table(
    'studies',
    study((t) => `team_sees_study(${t}.id)`),
    OWNER_ONLY,
  ),
  table('study_sites', study(OF_STUDY), OWNER_ONLY),
  table('study_visits', study(OF_STUDY), OWNER_ONLY),
  table('study_reliability', study(OF_STUDY), OWNER_ONLY),
  table('study_chart_choices', study(OF_STUDY), OWNER_ONLY),
  table('batches', study(OF_STUDY), COORDINATOR),
  table('service_profiles', study(EVERY), OWNER_ONLY, { ownerOnly: ['key_ref'] }),
  // The service's usage readings, which every sending workstation's engine records (before and after a batch).
  table('usage_history', study(EVERY), SENDING_ROLES),
  table('settings', study(EVERY), OWNER_ONLY),
  // Every member's workstation says it is here (and which login runs it); each writes only its own row.
  table('workstations', study(EVERY), EVERY_MEMBER, {
    writeRule: 'workstations.login = CAST(current_user AS text)',
  }),
  // Taken by every request of every workstation that runs the engine: the owner's and coordinators'.
  table('request_budgets', study(EVERY), COORDINATOR),
];

/**
 * The tables only the administrator writes and every member reads: the schema's version and who is on
 * the team.
 */
export const TEAM_TABLES: readonly TableAccess[] = [
  table('schema_version', study(EVERY), OWNER_ONLY),
  table('team_members', study(EVERY), OWNER_ONLY),
  table('team_member_sites', study(EVERY), OWNER_ONLY),
];
