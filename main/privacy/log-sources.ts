/**
 * What the logger keeps out of its lines, read from the running services: every API key the key store
 * can read (stored keys, keys held in environment variables, the built-in sandbox's demo key) by the
 * key references the services keep in memory (log-facts.ts), every participant code, and the
 * diagnostic-mode switch (log-facts.ts too). The code list is cached for a second and read
 * again only when the table changed: a log line must stay cheap in a study of 100,000 participants.
 */
import type { Db } from '../db/open';
import { allParticipantCodes, participantCodesVersion } from '../db/repos/participants.repo';
import type { LogSources } from '../log';
import { DEMO_API_KEY } from '../sandbox/config';
import { createKeyStore, type KeyVault } from '../workspace/key-store';
import type { LogFacts } from './log-facts';

/** Participant codes are listed again at most this often (when the table changed); a new code is covered within a second. */
const FRESH_MS = 1_000;

export const logSourcesFor = (
  db: Db,
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
  let codes: { at: number; version: string; list: readonly string[] } = {
    at: -Infinity,
    version: '',
    list: [],
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
      if (now() - codes.at < FRESH_MS) return codes.list;
      const version = participantCodesVersion(db);
      const list = version === codes.version ? codes.list : allParticipantCodes(db);
      codes = { at: now(), version, list };
      return list;
    },
    /** Kept current by the privacy service: switching diagnostic mode off takes effect from the next line. */
    diagnostic: () => facts.diagnostic,
  };
};
