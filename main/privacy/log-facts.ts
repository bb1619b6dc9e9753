/**
 * What the log's redaction needs from the study database, held in memory: a log line is written
 * synchronously and cannot wait for the store. The fact is the diagnostic-mode switch, loaded once when
 * the workspace opens (`load`, before the logger is attached) and kept current by the privacy service
 * after switching it.
 */
import type { Queryable } from '../db/store/types';
import { readDiagnostic } from './diagnostic';

export interface LogFacts {
  /** Diagnostic mode is on: participant codes are then kept in the log. */
  readonly diagnostic: boolean;
  /** Reads every fact from the store. */
  load(q: Queryable): Promise<void>;
  setDiagnostic(on: boolean): void;
}

export const createLogFacts = (): LogFacts => {
  let diagnostic = false;
  return {
    get diagnostic() {
      return diagnostic;
    },
    async load(q) {
      diagnostic = (await readDiagnostic(q)).on;
    },
    setDiagnostic(on) {
      diagnostic = on;
    },
  };
};
