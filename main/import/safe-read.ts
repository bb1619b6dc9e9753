/**
 * Reading the researcher's files without ever disclosing them: what import reads, and how.
 *   - Only regular files, read with a size cap (a manifest of `/dev/zero` is refused before one byte).
 *   - Never a path (after following links) under `/proc`, `/sys` or `/dev`, nor in the workspace's own
 *     private folders (keys, logs, archives, the study database): the window cannot ask for the API key
 *     file "as a manifest".
 *   - A manifest must look like delimited text (UTF-8, no control characters, a comma or semicolon on
 *     its first line); refusals name what is wrong and never quote the file.
 *   - Folder walks refuse a file-system root or a home folder as a whole, do not follow links, stop at
 *     MAX_WALK_ENTRIES, can be cancelled and report how many entries they have looked at.
 *   - A path that does not exist gets a sentence, not ENOENT.
 * Refusals are values (`ReadRefusal`); `ReadRefusedError` carries one through code that throws.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, opendir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';
import { err, ok, type Result } from '../../shared/result';

/** A manifest larger than this is not a manifest (10 MiB: about 100,000 rows). */
export const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;
/** Recordings are read whole to hash and probe them; beyond this a file is refused (the service takes 50 MB). */
export const MAX_RECORDING_BYTES = 1024 * 1024 * 1024;
/** A folder walk looks at no more entries than this (files and folders together). */
export const MAX_WALK_ENTRIES = 200_000;
/** How many of the files a walk leaves out it names (the rest are counted). */
export const SKIPPED_NAMED = 10;

/** Where no import ever reads, whatever links point there. */
const SYSTEM_ROOTS = ['/proc', '/sys', '/dev'];

export type ReadRefusalKind =
  | 'missing'
  | 'not_a_file'
  | 'too_large'
  | 'private'
  | 'system'
  | 'not_text'
  | 'too_broad'
  | 'too_many'
  | 'cancelled'
  | 'unreadable';

export interface ReadRefusal {
  readonly kind: ReadRefusalKind;
  /** A sentence for the researcher; names the path, never the file's content. */
  readonly message: string;
}

export class ReadRefusedError extends Error {
  constructor(readonly refusal: ReadRefusal) {
    super(refusal.message);
    this.name = 'ReadRefusedError';
  }
}

export interface ReadContext {
  /** Folders (and files) never read: the workspace's private places. */
  readonly privatePaths: readonly string[];
}

/** The workspace's private places, from its folder: everything in it is Voicescope's own. */
export const privatePathsOf = (workspaceDir: string): string[] => [resolve(workspaceDir)];

/** The private places of the workspace that holds this database file (none for an in-memory database). */
export const privatePathsOfDbFile = (dbFile: string): string[] =>
  dbFile === '' || dbFile === ':memory:' ? [] : privatePathsOf(dirname(resolve(dbFile)));

const refusal = (kind: ReadRefusalKind, message: string): ReadRefusal => ({ kind, message });

const within = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

const realOrSelf = async (p: string) => {
  try {
    return await realpath(p);
  } catch {
    return resolve(p);
  }
};

const fsCode = (e: unknown) => (e as { code?: unknown }).code;

/**
 * The real path (links followed) of `path` when import may read there; otherwise why not.
 * `what` names the thing in the sentence ("The manifest", "The folder or file").
 */
export const checkPlace = async (
  path: string,
  ctx: ReadContext,
  what = 'The file',
): Promise<Result<string, ReadRefusal>> => {
  const abs = resolve(path);
  for (const root of SYSTEM_ROOTS)
    if (within(abs, root))
      return err(refusal('system', `${what} ${abs} is a system location that Voicescope never reads.`));
  let real: string;
  try {
    await lstat(abs);
    real = await realpath(abs);
  } catch (e) {
    const code = fsCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return err(refusal('missing', `${what} ${abs} does not exist. Check the path and try again.`));
    return err(
      refusal(
        'unreadable',
        `${what} ${abs} cannot be read (${code === 'EACCES' || code === 'EPERM' ? 'you may not read it' : 'the system refused'}).`,
      ),
    );
  }
  for (const root of SYSTEM_ROOTS)
    if (within(real, root))
      return err(refusal('system', `${what} ${abs} leads to a system location that Voicescope never reads.`));
  for (const p of ctx.privatePaths) {
    if (within(real, await realOrSelf(p)))
      return err(
        refusal(
          'private',
          `${what} ${abs} is inside Voicescope's own workspace folder, which holds its keys, logs and study database; import never reads there.`,
        ),
      );
  }
  return ok(real);
};

/** A regular file's bytes, at most `maxBytes` (the cap is checked before and while reading). */
export const readRegularFile = async (
  path: string,
  o: ReadContext & { readonly maxBytes: number; readonly what?: string },
): Promise<Result<Buffer, ReadRefusal>> => {
  const what = o.what ?? 'The file';
  const place = await checkPlace(path, o, what);
  if (!place.ok) return place;
  const abs = resolve(path);
  const s = await stat(place.value);
  if (s.isDirectory()) return err(refusal('not_a_file', `${what} ${abs} is a folder, not a file.`));
  if (!s.isFile())
    return err(
      refusal(
        'not_a_file',
        `${what} ${abs} is not an ordinary file (a device, pipe or socket), so it is not read.`,
      ),
    );
  const tooLarge = () =>
    err(
      refusal(
        'too_large',
        `${what} ${abs} is larger than ${Math.round(o.maxBytes / 1024 / 1024)} MB, more than Voicescope reads for this.`,
      ),
    );
  if (s.size > o.maxBytes) return tooLarge();
  let fh;
  try {
    fh = await open(place.value, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return err(refusal('unreadable', `${what} ${abs} cannot be opened for reading.`));
  }
  try {
    const s2 = await fh.stat();
    if (!s2.isFile()) return err(refusal('not_a_file', `${what} ${abs} is not an ordinary file.`));
    const buf = Buffer.alloc(Math.min(o.maxBytes + 1, Math.max(s2.size + 1, 1)));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        // The file grew while being read: one more byte decides whether it is over the cap.
        if (n > o.maxBytes) return tooLarge();
        const more = Buffer.alloc(1);
        const { bytesRead } = await fh.read(more, 0, 1, n);
        if (bytesRead === 0) break;
        return tooLarge();
      }
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > o.maxBytes) return tooLarge();
    return ok(buf.subarray(0, n));
  } finally {
    await fh.close();
  }
};

/** Control characters other than tab, line feed and carriage return (and the byte-order mark is fine). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Text a manifest can be: UTF-8, no control characters, a comma or semicolon on its first non-empty line. */
export const looksLikeDelimitedText = (bytes: Uint8Array): boolean => {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  if (CONTROL.test(text)) return false;
  const first = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .find((l) => l.trim() !== '');
  return first === undefined || first.includes(',') || first.includes(';');
};

/** The manifest's text, or why it is not read (never quoting it). */
export const readManifestText = async (
  path: string,
  ctx: ReadContext,
): Promise<Result<string, ReadRefusal>> => {
  const bytes = await readRegularFile(path, { ...ctx, maxBytes: MAX_MANIFEST_BYTES, what: 'The manifest' });
  if (!bytes.ok) return bytes;
  if (!looksLikeDelimitedText(bytes.value))
    return err(
      refusal(
        'not_text',
        `The manifest ${resolve(path)} is not a CSV file: a manifest is UTF-8 text with a header row of columns separated by commas or semicolons (file, participant, …).`,
      ),
    );
  return ok(bytes.value.toString('utf8'));
};

export interface WalkOptions extends ReadContext {
  /** Which files to keep (by name); the rest are counted as skipped. */
  readonly keep: (name: string) => boolean;
  readonly signal?: AbortSignal;
  /** Entries looked at so far, now and then while walking. */
  readonly onProgress?: (entriesSeen: number) => void;
  readonly maxEntries?: number;
}

/** Why a folder is too broad to import as a whole, if it is. */
const tooBroad = async (real: string, abs: string): Promise<ReadRefusal | null> => {
  if (parse(real).root === real)
    return refusal(
      'too_broad',
      `${abs} is the top of a drive; Voicescope does not search a whole drive. Choose the folder that holds the recordings.`,
    );
  if (real === (await realOrSelf(homedir())))
    return refusal(
      'too_broad',
      `${abs} is your whole home folder; Voicescope does not search all of it. Choose the folder that holds the recordings.`,
    );
  return null;
};

/**
 * Files under the given paths (folders recursively, links not followed), bounded, cancellable. Hidden
 * files (a name or a folder on the way starting with a dot) and files `keep` refuses are counted as
 * skipped (the first SKIPPED_NAMED of them by their path inside the folder chosen, so the import can name
 * them); private and system places inside a folder are passed over.
 */
export const walkFiles = async (
  paths: readonly string[],
  o: WalkOptions,
): Promise<Result<{ files: string[]; skipped: number; skippedNames: string[] }, ReadRefusal>> => {
  const max = o.maxEntries ?? MAX_WALK_ENTRIES;
  const files: string[] = [];
  const skippedNames: string[] = [];
  let skipped = 0;
  let seen = 0;
  const privateReal = await Promise.all(o.privatePaths.map(realOrSelf));
  const cancelled = () =>
    err(refusal('cancelled', 'Reading the folders was cancelled; nothing was imported.'));
  for (const p of paths) {
    const abs = resolve(p);
    const place = await checkPlace(abs, o, 'The folder or file');
    if (!place.ok) return place;
    const s = await stat(place.value);
    if (s.isFile()) {
      files.push(abs);
      continue;
    }
    if (!s.isDirectory())
      return err(refusal('not_a_file', `${abs} is not an ordinary file or folder, so it is not read.`));
    const broad = await tooBroad(place.value, abs);
    if (broad) return err(broad);
    // Depth first over [folder, hidden-on-the-way]; links are neither files nor folders here.
    const stack: [string, boolean][] = [[abs, false]];
    while (stack.length > 0) {
      if (o.signal?.aborted) return cancelled();
      const [dir, hiddenAbove] = stack.pop()!;
      let handle;
      try {
        handle = await opendir(dir);
      } catch {
        continue; // a folder we may not read is passed over, as a file manager would
      }
      for await (const e of handle) {
        seen += 1;
        if (seen > max)
          return err(
            refusal(
              'too_many',
              `${abs} holds more than ${max.toLocaleString('en')} files and folders; choose a smaller folder.`,
            ),
          );
        if (seen % 1000 === 0) {
          o.onProgress?.(seen);
          if (o.signal?.aborted) return cancelled();
        }
        const full = join(dir, e.name);
        const hidden = hiddenAbove || e.name.startsWith('.');
        if (e.isDirectory()) {
          if (SYSTEM_ROOTS.some((r) => within(full, r)) || privateReal.some((r) => within(full, r))) continue;
          stack.push([full, hidden]);
        } else if (e.isFile()) {
          if (hidden || !o.keep(e.name)) {
            skipped += 1;
            if (skippedNames.length < SKIPPED_NAMED) skippedNames.push(relative(abs, full));
          } else files.push(full);
        }
      }
    }
  }
  o.onProgress?.(seen);
  return ok({ files: [...new Set(files)].sort(), skipped, skippedNames });
};

/** What {@link scanRegularFile} does after the first bytes: stop, hash the rest, or also keep every byte. */
export type ScanDepth = 'head_only' | 'hash' | 'whole';

export interface ScannedFile {
  readonly sizeBytes: number;
  readonly mtimeMs: number;
  /** The first bytes (up to `headBytes`). */
  readonly head: Uint8Array;
  /** SHA-256 of the whole file, hex (null for 'head_only'). */
  readonly sha256: string | null;
  /** Every byte (only for 'whole'). */
  readonly bytes: Uint8Array | null;
}

const SCAN_CHUNK = 1024 * 1024;

/**
 * Reads a regular file with bounded memory: its first `headBytes`, then, as `decide` says from those and
 * the file's size, nothing more, or the rest streamed through SHA-256 (1 MiB at a time), or the whole
 * file kept ('whole' is refused above `maxWholeBytes`). A file of any size can be looked at this way.
 */
export const scanRegularFile = async (
  path: string,
  o: ReadContext & {
    readonly headBytes: number;
    readonly maxWholeBytes: number;
    readonly decide: (head: Uint8Array, sizeBytes: number) => ScanDepth;
  },
): Promise<Result<ScannedFile, ReadRefusal>> => {
  const place = await checkPlace(path, o, 'The file');
  if (!place.ok) return place;
  const abs = resolve(path);
  let fh;
  try {
    fh = await open(place.value, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return err(refusal('unreadable', `The file ${abs} cannot be opened for reading.`));
  }
  try {
    const s = await fh.stat();
    if (!s.isFile())
      return err(refusal('not_a_file', `The file ${abs} is not an ordinary file, so it is not read.`));
    const head = new Uint8Array(Math.min(o.headBytes, s.size));
    let n = 0;
    while (n < head.length) {
      const { bytesRead } = await fh.read(head, n, head.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    const headRead = head.subarray(0, n);
    let depth = o.decide(headRead, s.size);
    if (depth === 'whole' && s.size > o.maxWholeBytes) depth = 'hash';
    if (depth === 'head_only')
      return ok({ sizeBytes: s.size, mtimeMs: s.mtimeMs, head: headRead, sha256: null, bytes: null });
    const hash = createHash('sha256');
    const whole = depth === 'whole' ? new Uint8Array(s.size) : null;
    const buf = new Uint8Array(SCAN_CHUNK);
    let at = 0;
    for (;;) {
      const target = whole ? whole.subarray(at, Math.min(whole.length, at + SCAN_CHUNK)) : buf;
      if (target.length === 0) break;
      const { bytesRead } = await fh.read(target, 0, target.length, at);
      if (bytesRead === 0) break;
      hash.update(target.subarray(0, bytesRead));
      at += bytesRead;
    }
    return ok({
      sizeBytes: at,
      mtimeMs: s.mtimeMs,
      head: headRead,
      sha256: hash.digest('hex'),
      bytes: whole ? whole.subarray(0, at) : null,
    });
  } finally {
    await fh.close();
  }
};
