/**
 * The main process's one logger: a file in the workspace's logs folder (readable only by this user)
 * and the console. Every line is redacted before it is written anywhere:
 *   - API keys: every key Voicescope knows of (read from its sources) and anything after `Bearer`;
 *     secrets in URLs (`token=`, `key=`) too;
 *   - audio: binary values are never written (only their size) and long Base64 runs are cut out;
 *   - participant codes: every code in the study database is replaced by `[participant]`, and fields
 *     named like participant codes are dropped, unless the researcher turned on diagnostic mode.
 * Redaction is the safety net; callers log database ids, not codes, in the first place.
 *
 * Before `attach` (while the database is still being opened) only the pattern rules apply.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { narrowTree } from './file-modes';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What the logger must keep out of its lines, read when a line is written (cheap; the sources cache). */
export interface LogSources {
  /** Every API key Voicescope holds or can read now. */
  secrets(): readonly string[];
  /** Every participant code in the study database; the same array while nothing changed (the matcher is rebuilt only for a new one). */
  participantCodes(): readonly string[];
  /** The researcher's diagnostic mode: participant codes are then kept (API keys never are). */
  diagnostic(): boolean;
}

/** What the router writes: its failures, and calls slower than it expects. The Logger is one. */
export interface RouterLog {
  error(message: string, detail?: unknown): void;
  slow?(method: string, ms: number): void;
}

export interface Logger extends RouterLog {
  debug(message: string, ...detail: unknown[]): void;
  info(message: string, ...detail: unknown[]): void;
  warn(message: string, ...detail: unknown[]): void;
  error(message: string, ...detail: unknown[]): void;
  /** A line for the person at the console only, never the file (the browser-mode address holds the launch token). */
  announce(line: string): void;
  attach(sources: LogSources): void;
  /** The current log file, or null when the logger writes to the console only. */
  readonly file: string | null;
}

export interface LoggerOptions {
  /** The logs folder (created 0700); none: console only. */
  readonly dir?: string;
  /** Write to the console too (default true). */
  readonly console?: boolean;
  /** Rotate the file above this size (default 5 MB); three old files are kept. */
  readonly maxBytes?: number;
  readonly now?: () => number;
  /** Where console lines go; default the process's stdout and stderr (captured before any console patching). */
  readonly out?: (line: string) => void;
  readonly err?: (line: string) => void;
}

export const LOG_FILE_NAME = 'voicescope.log';
export const logsDirOf = (workspaceDir: string): string => join(workspaceDir, 'logs');

const MAX_LINE_CHARS = 16_000;
const KEPT_FILES = 3;
/** Base64 runs this long are audio or other binary content, never a useful log detail. */
const BASE64_RUN = /[A-Za-z0-9+/]{200,}={0,2}/g;
const BEARER = /\b(Bearer)(\s+)[^\s"',;)}\]]+/gi;
const URL_SECRET = /([?&#](?:token|access_token|api_key|apikey|key)=)[^&\s"'#]+/gi;
const CODE_FIELD = /^participant_?codes?$/i;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One regular expression for every code, longest first, matched only where no letter or digit
 * touches it (so `P1` is found in `P1_2026-01-05.wav` but not inside `HTTP1`). Codes of one
 * character cannot be told apart from ordinary text and are left alone.
 */
export const codeMatcher = (codes: readonly string[]): RegExp | null => {
  const usable = [...new Set(codes.filter((c) => c.length >= 2))].sort((a, b) => b.length - a.length);
  if (usable.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${usable.map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
};

export interface RedactRules {
  readonly secrets: readonly string[];
  /** From codeMatcher; null in diagnostic mode or when there are no codes. */
  readonly codes: RegExp | null;
}

/** Applies every rule to one piece of text. */
export const redact = (text: string, rules: RedactRules): string => {
  let s = text;
  for (const k of rules.secrets) if (k.length >= 8 && s.includes(k)) s = s.split(k).join('[api key]');
  s = s.replace(BEARER, '$1$2[redacted]').replace(URL_SECRET, '$1[redacted]');
  s = s.replace(BASE64_RUN, (m) => `[${m.length} characters of encoded data omitted]`);
  if (rules.codes) s = s.replace(rules.codes, '[participant]');
  return s.length > MAX_LINE_CHARS
    ? `${s.slice(0, MAX_LINE_CHARS)} [${s.length - MAX_LINE_CHARS} characters cut]`
    : s;
};

/** A copy of a detail value without binary contents (audio) and, unless diagnostic, without participant-code fields. */
const scrub = (v: unknown, diagnostic: boolean, seen = new WeakSet<object>(), depth = 0): unknown => {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Uint8Array || v instanceof ArrayBuffer || ArrayBuffer.isView(v))
    return `[${(v as ArrayBuffer | ArrayBufferView).byteLength} bytes of binary data omitted]`;
  if (v instanceof Error) return v;
  if (seen.has(v) || depth > 5) return '[…]';
  seen.add(v);
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => scrub(x, diagnostic, seen, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = !diagnostic && CODE_FIELD.test(k) ? '[participant]' : scrub(x, diagnostic, seen, depth + 1);
  }
  return out;
};

const describe = (v: unknown, diagnostic: boolean): string => {
  if (typeof v === 'string') return v;
  if (v instanceof Error) {
    const code = (v as { code?: unknown }).code;
    return `${v.stack ?? `${v.name}: ${v.message}`}${typeof code === 'string' ? ` (${code})` : ''}`;
  }
  return inspect(scrub(v, diagnostic), {
    depth: 5,
    breakLength: Infinity,
    maxStringLength: 4_000,
    maxArrayLength: 50,
  });
};

export const createLogger = (o: LoggerOptions = {}): Logger => {
  const now = o.now ?? Date.now;
  const maxBytes = o.maxBytes ?? 5 * 1024 * 1024;
  const toOut =
    o.out ??
    ((l: string) => {
      process.stdout.write(`${l}\n`);
    });
  const toErr =
    o.err ??
    ((l: string) => {
      process.stderr.write(`${l}\n`);
    });
  const useConsole = o.console ?? true;
  let sources: LogSources | null = null;
  let lastRules: RedactRules = { secrets: [], codes: null };
  let codesFrom: readonly string[] | null = null;
  let cachedCodes: RegExp | null = null;

  const file = o.dir ? join(o.dir, LOG_FILE_NAME) : null;
  if (o.dir) mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  // Logs an earlier version or the user left readable to others are made private (0700 / 0600).
  const narrowed = o.dir ? narrowTree(o.dir, 1) : [];

  /** The rules as of now; if a source fails (the database is closing), the last known rules still apply. */
  const rules = (): RedactRules & { diagnostic: boolean } => {
    if (!sources) return { ...lastRules, diagnostic: false };
    try {
      const diagnostic = sources.diagnostic();
      const list = sources.participantCodes();
      if (list !== codesFrom) {
        cachedCodes = codeMatcher(list);
        codesFrom = list;
      }
      lastRules = { secrets: sources.secrets(), codes: cachedCodes };
      return { secrets: lastRules.secrets, codes: diagnostic ? null : cachedCodes, diagnostic };
    } catch {
      return { ...lastRules, diagnostic: false };
    }
  };

  const rotate = (f: string) => {
    try {
      if (!existsSync(f) || statSync(f).size < maxBytes) return;
      for (let i = KEPT_FILES - 1; i >= 1; i--)
        if (existsSync(`${f}.${i}`)) renameSync(`${f}.${i}`, `${f}.${i + 1}`);
      renameSync(f, `${f}.1`);
    } catch {
      /* a failed rotation must not stop logging */
    }
  };

  const write = (level: LogLevel, message: string, detail: readonly unknown[]) => {
    const r = rules();
    if (level === 'debug' && !r.diagnostic) return;
    const body = [message, ...detail.map((d) => describe(d, r.diagnostic))].join(' ');
    const line = `${new Date(now()).toISOString()} ${level.toUpperCase().padEnd(5)} ${redact(body, r)}`;
    if (file) {
      try {
        rotate(file);
        appendFileSync(file, `${line}\n`, { mode: 0o600 });
        chmodSync(file, 0o600);
      } catch {
        /* the disk may be full: the console still gets the line */
      }
    }
    if (useConsole) (level === 'error' || level === 'warn' ? toErr : toOut)(line);
  };

  if (narrowed.length > 0)
    write('warn', `the logs were readable by others; made private to this user: ${narrowed.join(', ')}`, []);

  return {
    file,
    debug: (m, ...d) => write('debug', m, d),
    info: (m, ...d) => write('info', m, d),
    warn: (m, ...d) => write('warn', m, d),
    error: (m, ...d) => write('error', m, d),
    slow: (method, ms) => write('info', `slow request ${method}: ${Math.round(ms)} ms`, []),
    announce: (line) => toOut(line),
    attach(s) {
      sources = s;
    },
  };
};

/**
 * Sends everything written with console.* through the logger (the engine's modules log with
 * console.error), so no line reaches the terminal or the file unredacted. Returns the undo.
 */
export const routeConsole = (log: Logger): (() => void) => {
  const saved = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
  };
  const text = (args: unknown[]) =>
    [typeof args[0] === 'string' ? args[0] : inspect(args[0]), args.slice(1)] as const;
  console.log = (...a: unknown[]) => {
    const [m, d] = text(a);
    log.info(m, ...d);
  };
  console.info = console.log;
  console.warn = (...a: unknown[]) => {
    const [m, d] = text(a);
    log.warn(m, ...d);
  };
  console.error = (...a: unknown[]) => {
    const [m, d] = text(a);
    log.error(m, ...d);
  };
  console.debug = (...a: unknown[]) => {
    const [m, d] = text(a);
    log.debug(m, ...d);
  };
  return () => Object.assign(console, saved);
};
