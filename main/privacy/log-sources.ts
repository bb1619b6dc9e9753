/**
 * What the logger keeps out of its lines, read from the running services: every API key the key store
 * can read (stored keys, keys held in environment variables, the built-in sandbox's demo key) by the
 * key references the services keep in memory (log-facts.ts), every participant code, and the
 * diagnostic-mode switch (log-facts.ts too). A line reads memory only. While lines are written, the
 * participant codes are checked against the table at most once a second, in the background (for codes
 * another process wrote; this process's own are noted before they are written): a log line must stay
 * cheap in a study of 100,000 participants.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable } from '../db/store/types';
import type { LogSources } from '../log';
import { DEMO_API_KEY } from '../sandbox/config';
import { createKeyStore, type KeyVault } from '../workspace/key-store';
import type { LogFacts } from './log-facts';

/** The participant codes are checked against the table at most this often (for another process's new codes). */
const FRESH_MS = 1_000;

export const logSourcesFor = (
  store: Queryable,
  facts: LogFacts,
  o: { keysDir: string; vault?: KeyVault; env?: NodeJS.ProcessEnv; now?: () => number },
): LogSources => {
  const keys = createKeyStore({
    keysDir: o.keysDir,
    ...(o.vault ? { vault: o.vault } : {}),
    ...(o.env ? { env: o.env } : {}),
  });
  const now = o.now ?? Date.now;
  let secrets: { list: readonly string[] } = { list: [DEMO_API_KEY] };
  let checkedAt = now();
  // The check runs outside whatever the line was written from: a line written inside a store
  // transaction must not send the store a call it would refuse (or wait for) there.
  const outside = AsyncLocalStorage.snapshot();
  const check = () => {
    checkedAt = now();
    outside(() => {
      // Not awaited: the line is written now, from memory. A failure (the store closing) changes nothing.
      facts.refreshParticipantCodes(store).catch(() => {});
    });
  };
  return {
    secrets() {
      // Read for every line (a replaced key keeps its reference): a few small files or the vault's memory.
      const refs = facts.keyRefs;
      const list = [DEMO_API_KEY, ...refs.map((r) => keys.load(r)).flatMap((k) => (k.ok ? [k.value] : []))];
      secrets = {
        list:
          list.length === secrets.list.length && list.every((k, i) => k === secrets.list[i])
            ? secrets.list
            : list,
      };
      return secrets.list;
    },
    participantCodes() {
      if (now() - checkedAt >= FRESH_MS) check();
      return facts.participantCodes;
    },
    /** Kept current by the privacy service: switching diagnostic mode off takes effect from the next line. */
    diagnostic: () => facts.diagnostic,
  };
};
