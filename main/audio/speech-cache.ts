/**
 * Speech estimates already made, kept on disk by the audio's SHA-256 and what was measured, for every
 * process and thread given the same folder in `VOICESCOPE_SPEECH_CACHE`. The test tiers set it to a folder
 * of their own for one run (test/support/run-caches.ts), so the same generated audio, measured by
 * the import in one test file and by the sandbox in another, runs through the model once per run; the
 * estimate is deterministic, so a stored answer is the answer the model would give again. Unset, as in
 * the product, nothing is stored or read.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SPEECH_CACHE_ENV = 'VOICESCOPE_SPEECH_CACHE';

const folder = (): string | null => process.env[SPEECH_CACHE_ENV] || null;

/** The cache's key for audio bytes and what was measured in them; null when no cache folder is set. */
export const speechCacheKey = (bytes: Uint8Array, what: string): string | null =>
  folder() === null ? null : `${createHash('sha256').update(bytes).digest('hex')}-${what}`;

/** The same key for a file on disk (read whole only when a cache folder is set). */
export const speechCacheKeyOfFile = async (path: string, what: string): Promise<string | null> =>
  folder() === null ? null : speechCacheKey(await readFile(path), what);

const fileOf = (key: string) => join(folder()!, `${key.replace(/[^\w.-]/g, '_')}.json`);

export const readCachedSpeech = <T>(key: string | null): T | undefined => {
  if (key === null || folder() === null) return undefined;
  try {
    return JSON.parse(readFileSync(fileOf(key), 'utf8')) as T;
  } catch {
    return undefined;
  }
};

/** Stores an estimate; written whole under a name of its own, then renamed, so no reader sees half of it. */
export const storeCachedSpeech = (key: string | null, value: unknown): void => {
  if (key === null || folder() === null) return;
  const target = fileOf(key);
  const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(folder()!, { recursive: true });
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, target);
  } catch {
    // A cache that cannot be written only costs the next reader a measurement.
  }
};

/** The stored estimate for `key`, or `measure()`'s, stored for the next process that asks. */
export const cachedSpeech = async <T>(key: string | null, measure: () => Promise<T>): Promise<T> => {
  const known = readCachedSpeech<T>(key);
  if (known !== undefined) return known;
  const value = await measure();
  storeCachedSpeech(key, value);
  return value;
};
