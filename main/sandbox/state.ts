/**
 * The sandbox's in-memory state: organisations (with their credit buckets and v1.2 count), accounts
 * and recordings. A recording keeps the SHA-256 and the measured facts of its audio, never the audio.
 * Optionally persisted to a JSON file, written atomically (temporary file, fsync, rename) after every
 * change and loaded on start.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { z } from 'zod';
import { AnalysisType, ApiVersion, AUDIO_FORMATS, type AnalysisStatus } from '../../shared/api/vocabulary';
import { Organisation, organisationConflicts } from './config';

export const AudioFacts = z.object({
  format: z.enum(AUDIO_FORMATS),
  sizeBytes: z.number().int().min(0),
  channels: z.number().int().min(0),
  sampleRateHz: z.number().int().min(0),
  bitRateBps: z.number().int().min(0),
  durationSeconds: z.number().min(0),
  speechSeconds: z.number().min(0),
  /** `vad`: measured by the import's speech estimate on the decoded audio; `estimated`: 85 % of the duration (a codec the sandbox cannot decode). */
  speechSource: z.enum(['vad', 'estimated']),
});
export type AudioFacts = z.infer<typeof AudioFacts>;

export const TypeOutcome = z.object({
  /** Epoch ms at which processing ends. */
  dueAt: z.number(),
  /** What processing ends in. */
  outcome: z.enum(['completed', 'error']),
  /** Set once the final status has been observed, so it never goes back to processing (even if the clock does). */
  settled: z.boolean(),
});
export type TypeOutcome = z.infer<typeof TypeOutcome>;

export const AccountRecord = z.object({
  id: z.string(),
  orgId: z.string(),
  createdAt: z.number(),
});
export type AccountRecord = z.infer<typeof AccountRecord>;

export const RecordingRecord = z.object({
  id: z.string(),
  orgId: z.string(),
  accountId: z.string(),
  /** Echo of the request's `recorded_at`, verbatim. */
  recordedAt: z.string(),
  /** Epoch ms. */
  uploadedAt: z.number(),
  uploadVersion: ApiVersion,
  audioSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The audio as submitted. */
  submitted: AudioFacts,
  /** What the Recording describes: the retained speaker's audio with isolation, else the submitted audio. */
  reported: AudioFacts,
  isolateOldestSpeaker: z.boolean(),
  requested: z.array(AnalysisType),
  types: z.partialRecord(AnalysisType, TypeOutcome),
});
export type RecordingRecord = z.infer<typeof RecordingRecord>;

const StateFile = z.object({
  format: z.literal('voicescope-sandbox-state'),
  version: z.literal(1),
  organisations: z.array(Organisation),
  accounts: z.array(AccountRecord),
  recordings: z.array(RecordingRecord),
});
type StateFile = z.infer<typeof StateFile>;

export class StateFileError extends Error {}

export class SandboxState {
  private readonly orgs = new Map<string, Organisation>();
  private readonly keys = new Map<string, string>();
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly recordings = new Map<string, RecordingRecord>();
  private tmpCounter = 0;
  private closed = false;

  private constructor(private readonly file: string | null) {}

  /** A fresh state with the given organisations, or the one in `file` when it exists (config organisations it lacks are added). */
  static open(configOrgs: readonly Organisation[], file: string | null): SandboxState {
    const state = new SandboxState(file);
    if (file !== null && existsSync(file)) {
      let parsed: StateFile;
      try {
        parsed = StateFile.parse(JSON.parse(readFileSync(file, 'utf8')));
      } catch (e) {
        const why = e instanceof z.ZodError ? z.prettifyError(e) : e instanceof Error ? e.message : String(e);
        throw new StateFileError(
          `The sandbox state file ${file} cannot be read (${why}). Move it away or delete it to start afresh.`,
        );
      }
      const orgs = [
        ...parsed.organisations,
        ...configOrgs.filter((c) => !parsed.organisations.some((o) => o.id === c.id)),
      ];
      const conflicts = organisationConflicts(orgs);
      if (conflicts.length)
        throw new StateFileError(
          `The sandbox state file ${file} conflicts with the configuration: ${conflicts.join('; ')}.`,
        );
      state.setOrganisations(orgs);
      for (const a of parsed.accounts) state.accounts.set(a.id, a);
      for (const r of parsed.recordings) state.recordings.set(r.id, r);
    } else {
      state.setOrganisations(configOrgs);
    }
    state.save();
    return state;
  }

  /** Back to the given organisations, with no accounts and no recordings. */
  reset(orgs: readonly Organisation[]): void {
    this.accounts.clear();
    this.recordings.clear();
    this.setOrganisations(orgs);
    this.save();
  }

  private setOrganisations(orgs: readonly Organisation[]): void {
    this.orgs.clear();
    this.keys.clear();
    for (const o of orgs) this.putOrg(o);
  }

  private putOrg(org: Organisation): void {
    const previous = this.orgs.get(org.id);
    if (previous) for (const k of previous.apiKeys) this.keys.delete(k);
    this.orgs.set(org.id, structuredClone(org));
    for (const k of org.apiKeys) this.keys.set(k, org.id);
  }

  organisations(): Organisation[] {
    return [...this.orgs.values()].map((o) => structuredClone(o));
  }

  organisation(id: string): Organisation | null {
    const o = this.orgs.get(id);
    return o ? structuredClone(o) : null;
  }

  orgByKey(key: string): Organisation | null {
    const id = this.keys.get(key);
    return id === undefined ? null : (this.orgs.get(id) ?? null);
  }

  /** Adds or replaces an organisation; its accounts and recordings stay. Throws if one of its keys belongs to another organisation. */
  upsertOrganisation(org: Organisation): Organisation {
    for (const k of org.apiKeys) {
      const owner = this.keys.get(k);
      if (owner !== undefined && owner !== org.id)
        throw new Error(`The API key is already used by organisation "${owner}".`);
    }
    this.putOrg(org);
    this.save();
    return structuredClone(org);
  }

  /** Changes an organisation in place (credits, count), saves, and returns what `change` returned. */
  updateOrganisation<T>(id: string, change: (o: Organisation) => T): T {
    const o = this.orgs.get(id);
    if (!o) throw new Error(`no organisation ${id}`);
    const result = change(o);
    this.save();
    return result;
  }

  addAccount(a: AccountRecord): void {
    this.accounts.set(a.id, a);
    this.save();
  }

  account(id: string): AccountRecord | null {
    return this.accounts.get(id) ?? null;
  }

  addRecording(r: RecordingRecord): void {
    this.recordings.set(r.id, r);
    this.save();
  }

  recording(id: string): RecordingRecord | null {
    return this.recordings.get(id) ?? null;
  }

  allRecordings(): RecordingRecord[] {
    return [...this.recordings.values()];
  }

  countFor(orgId: string): { accounts: number; recordings: number } {
    let accounts = 0;
    let recordings = 0;
    for (const a of this.accounts.values()) if (a.orgId === orgId) accounts++;
    for (const r of this.recordings.values()) if (r.orgId === orgId) recordings++;
    return { accounts, recordings };
  }

  /** The status of one requested type at `now`; a final status, once seen, is kept for good. */
  statusOf(rec: RecordingRecord, type: AnalysisType, now: number): AnalysisStatus {
    const t = rec.types[type];
    if (!t) return 'not_requested';
    if (t.settled) return t.outcome;
    if (now < t.dueAt) return 'processing';
    t.settled = true;
    this.save();
    return t.outcome;
  }

  /** Saves one last time; later changes (requests still in flight when the server closed) stay in memory. */
  close(): void {
    this.save();
    this.closed = true;
  }

  /** Writes the whole state to the file, if there is one: temporary file in the same folder, fsync, rename. */
  save(): void {
    if (this.file === null || this.closed) return;
    const content: StateFile = {
      format: 'voicescope-sandbox-state',
      version: 1,
      organisations: [...this.orgs.values()],
      accounts: [...this.accounts.values()],
      recordings: [...this.recordings.values()],
    };
    const tmp = `${this.file}.${process.pid}.${++this.tmpCounter}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(content));
      fsyncSync(fd);
    } catch (e) {
      closeSync(fd);
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
      throw e;
    }
    closeSync(fd);
    renameSync(tmp, this.file);
  }
}
