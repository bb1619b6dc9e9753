/**
 * What the log's redaction needs from the study database, held in memory: a log line is written
 * synchronously and cannot wait for the store. The facts are the diagnostic-mode switch, the key
 * reference of every profile and every participant code. They are loaded once when the workspace opens
 * (`load`, before the logger is attached) and kept current by the services that change them: the
 * privacy service after switching diagnostic mode, the profiles service after every profile created,
 * given a key or deleted, and the engine whenever it reads a profile to build its client, so a key this
 * process loads is known to the log before it is used (even the key of a profile another process, the
 * command line, added since). A participant code is noted before the write that adds it (a new
 * participant, a new code, an import), so no line can carry it before the log knows it; codes another
 * process wrote are picked up by `refreshParticipantCodes` (log-sources.ts asks for it at most once a
 * second while lines are written).
 */
import { allParticipantCodes, participantCodesVersion } from '../db/repos/participants.repo';
import { profileKeyRefs } from '../db/repos/profiles.repo';
import type { Queryable } from '../db/store/types';
import { readDiagnostic } from './diagnostic';

export interface LogFacts {
  /** Diagnostic mode is on: participant codes are then kept in the log. */
  readonly diagnostic: boolean;
  /** The key reference of every profile, and of every key this process loaded through a profile. */
  readonly keyRefs: readonly string[];
  /** Every participant code in the study database, and every code this process noted: the same array while nothing changed. */
  readonly participantCodes: readonly string[];
  /** Reads every fact from the store. */
  load(q: Queryable): Promise<void>;
  /** Reads the profiles' key references again (after a profile was created, given a key or deleted). */
  refreshKeyRefs(q: Queryable): Promise<void>;
  /** A key reference about to be used: known to the log from now on. */
  noteKeyRef(ref: string): void;
  setDiagnostic(on: boolean): void;
  /** Codes about to be written (a participant created or renamed, an import): known to the log from now on. */
  noteParticipantCodes(codes: Iterable<string>): void;
  /** Lists the participant codes again when the table changed since the last reading (another process wrote). */
  refreshParticipantCodes(q: Queryable): Promise<void>;
}

export const createLogFacts = (): LogFacts => {
  let diagnostic = false;
  let stored: readonly string[] = [];
  /** Noted by the engine: kept, so a reading of the profiles begun before the note cannot drop one. */
  const noted = new Set<string>();
  let keyRefs: readonly string[] = [];
  /** Readings of the profiles are numbered: an older one finishing last does not undo a newer one. */
  let asked = 0;
  let applied = 0;
  const merge = () => {
    keyRefs = [...stored, ...[...noted].filter((r) => !stored.includes(r))];
  };
  const codes = participantCodeFacts();
  const self: LogFacts = {
    get diagnostic() {
      return diagnostic;
    },
    get keyRefs() {
      return keyRefs;
    },
    get participantCodes() {
      return codes.list;
    },
    async load(q) {
      diagnostic = (await readDiagnostic(q)).on;
      await self.refreshKeyRefs(q);
      await codes.refresh(q);
    },
    async refreshKeyRefs(q) {
      const n = ++asked;
      const refs = await profileKeyRefs(q);
      if (n < applied) return;
      applied = n;
      stored = refs;
      merge();
    },
    noteKeyRef(ref) {
      if (noted.has(ref)) return;
      noted.add(ref);
      merge();
    },
    setDiagnostic(on) {
      diagnostic = on;
    },
    noteParticipantCodes: (list) => codes.note(list),
    refreshParticipantCodes: (q) => codes.refresh(q),
  };
  return self;
};

/**
 * The participant codes: the table's as last read, and those noted since this process started. Noted
 * codes are kept, so a reading begun before a note cannot drop the noted code (a code renamed away
 * stays redacted too, which costs nothing). The list is rebuilt only when a code is new to it.
 */
const participantCodeFacts = () => {
  let version = '';
  let stored = new Set<string>();
  const noted = new Set<string>();
  let list: readonly string[] = [];
  let asked = 0;
  let applied = 0;
  const rebuild = () => {
    list = [...new Set([...stored, ...noted])];
  };
  return {
    get list() {
      return list;
    },
    note(codes: Iterable<string>) {
      let added = false;
      for (const c of codes)
        if (!noted.has(c)) {
          noted.add(c);
          if (!stored.has(c)) added = true;
        }
      if (added) rebuild();
    },
    async refresh(q: Queryable) {
      const n = ++asked;
      const v = await participantCodesVersion(q);
      if (v === version) return;
      const all = await allParticipantCodes(q);
      if (n < applied) return;
      applied = n;
      version = v;
      stored = new Set(all);
      rebuild();
    },
  };
};
