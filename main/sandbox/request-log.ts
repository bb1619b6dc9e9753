/** The sandbox's log of the requests it answered (or dropped), newest last, bounded. */
import type { Endpoint } from '../../shared/api/api-error';
import type { ApiVersion } from '../../shared/api/vocabulary';

export interface LoggedRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly version: ApiVersion | null;
  /** Null when no answer was sent (dropped connection, client gone). */
  readonly status: number | null;
  readonly endpoint: Endpoint | null;
  /** `http_500`, `dropped_before_processing`, `dropped_after_processing`, `schema_break:<mode>`, `misbehave:<names>`, or null. */
  readonly fault: string | null;
  readonly orgId: string | null;
  /** `now()` when the request arrived. */
  readonly at: number;
}

const MAX_LOG_ENTRIES = 10_000;

export class RequestLog {
  #entries: LoggedRequest[] = [];

  record(entry: LoggedRequest): void {
    this.#entries.push(entry);
    if (this.#entries.length > MAX_LOG_ENTRIES) this.#entries = this.#entries.slice(-MAX_LOG_ENTRIES);
  }

  /** The entries themselves (the admin route serialises them at once). */
  entries(): readonly LoggedRequest[] {
    return this.#entries;
  }

  clear(): void {
    this.#entries = [];
  }
}
