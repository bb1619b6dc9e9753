/**
 * What the log's redaction needs from the study database, held in memory: a log line is written
 * synchronously and cannot wait for the store. The facts are the diagnostic-mode switch and the key
 * reference of every profile. They are loaded once when the workspace opens (`load`, before the logger
 * is attached) and kept current by the services that change them: the privacy service after switching
 * diagnostic mode, the profiles service after every profile created, given a key or deleted, and the
 * engine whenever it reads a profile to build its client, so a key this process loads is known to the
 * log before it is used (even the key of a profile another process, the command line, added since).
 */
import { profileKeyRefs } from '../db/repos/profiles.repo';
import type { Queryable } from '../db/store/types';
import { readDiagnostic } from './diagnostic';

export interface LogFacts {
  /** Diagnostic mode is on: participant codes are then kept in the log. */
  readonly diagnostic: boolean;
  /** The key reference of every profile, and of every key this process loaded through a profile. */
  readonly keyRefs: readonly string[];
  /** Reads every fact from the store. */
  load(q: Queryable): Promise<void>;
  /** Reads the profiles' key references again (after a profile was created, given a key or deleted). */
  refreshKeyRefs(q: Queryable): Promise<void>;
  /** A key reference about to be used: known to the log from now on. */
  noteKeyRef(ref: string): void;
  setDiagnostic(on: boolean): void;
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
  const self: LogFacts = {
    get diagnostic() {
      return diagnostic;
    },
    get keyRefs() {
      return keyRefs;
    },
    async load(q) {
      diagnostic = (await readDiagnostic(q)).on;
      await self.refreshKeyRefs(q);
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
  };
  return self;
};
