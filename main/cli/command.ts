/**
 * What every `voicescope` command is (one module each under commands/), and what they share: the exit
 * codes, the parsed command line and the usage errors.
 */
import { parseArgs } from 'node:util';
import type { StudyService } from '../services/study-service';
import type { Output } from './output';

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  refused: 3,
  decide: 4,
  service: 5,
  timeout: 6,
  notExported: 7,
  /** Some analyses timed out or were never answered (`wait`, `import --wait`). */
  noResult: 8,
  /** `audit verify`: the audit log's hash chain is broken (the first broken entry is named). */
  auditBroken: 9,
  /** The study database cannot be opened: its address, its password, or its server. */
  database: 10,
  /** `wait`: all that is left to send waits for workstations that are away (only they hold the files). */
  awayWorkstation: 11,
} as const;

/** Every option of every command: any command accepts them all, and reads those it needs. */
const OPTIONS = {
  home: { type: 'string' },
  database: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  url: { type: 'string' },
  api: { type: 'string' },
  'key-env': { type: 'string' },
  'key-stdin': { type: 'boolean' },
  profile: { type: 'string' },
  study: { type: 'string' },
  manifest: { type: 'string' },
  pattern: { type: 'string' },
  tz: { type: 'string' },
  analyses: { type: 'string' },
  isolate: { type: 'boolean' },
  convert: { type: 'boolean' },
  'insist-duplicates': { type: 'boolean' },
  'send-borderline': { type: 'boolean' },
  channel: { type: 'string' },
  label: { type: 'string' },
  yes: { type: 'boolean' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  'first-poll': { type: 'string' },
  'poll-interval': { type: 'string' },
  'poll-jitter': { type: 'string' },
  budget: { type: 'string' },
  'poll-timeout': { type: 'string' },
  'recheck-interval': { type: 'string' },
  'recheck-for': { type: 'string' },
  'upload-concurrency': { type: 'string' },
  'uploads-per-minute': { type: 'string' },
  recording: { type: 'string' },
  decision: { type: 'string' },
  batch: { type: 'string' },
  sandbox: { type: 'boolean' },
  out: { type: 'string' },
  folder: { type: 'string' },
  forms: { type: 'string' },
  extras: { type: 'string' },
  preset: { type: 'string' },
  participant: { type: 'string', multiple: true },
  session: { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
  states: { type: 'string' },
  'link-file': { type: 'boolean' },
  'baseline-sessions': { type: 'string' },
  csv: { type: 'string' },
  'pitch-floor': { type: 'string' },
  'pitch-ceiling': { type: 'string' },
  again: { type: 'boolean' },
  'account-id': { type: 'string' },
  note: { type: 'string' },
  visit: { type: 'string', multiple: true },
  'no-visit': { type: 'boolean' },
  clear: { type: 'boolean' },
  set: { type: 'string' },
  on: { type: 'string' },
  reason: { type: 'string' },
  date: { type: 'string' },
  act: { type: 'string' },
  into: { type: 'string' },
  'dry-run': { type: 'boolean' },
  login: { type: 'string' },
  role: { type: 'string' },
  site: { type: 'string', multiple: true },
} as const;

/** Parses the command line; throws (with node's message) on an unknown option or a missing value. */
export const parseCommandLine = (argv: readonly string[]) =>
  parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });

export type CliValues = ReturnType<typeof parseCommandLine>['values'];

/** What a command is given: the options, the words after its name, and where to write. */
export interface CommandInput {
  readonly values: CliValues;
  /** The word after the command's name (a subcommand, or import's first path). */
  readonly sub: string | undefined;
  readonly rest: readonly string[];
  readonly out: Output;
}

export interface CommandContext extends CommandInput {
  readonly svc: StudyService;
}

/** A command that works in the workspace (the dispatcher opens it, and closes it afterwards). */
export interface WorkspaceCommand {
  readonly name: string;
  /** Its lines in `voicescope --help`, and its own `--help`. */
  readonly help: string;
  readonly workspace?: true;
  run(ctx: CommandContext): Promise<number>;
}

/** A command that needs no workspace (nothing is opened or created). */
export interface StandaloneCommand {
  readonly name: string;
  readonly help: string;
  readonly workspace: false;
  run(input: CommandInput): Promise<number>;
}

export type CliCommand = WorkspaceCommand | StandaloneCommand;

/** Wrong usage: the message goes to stderr and the exit code is EXIT.usage. */
export class UsageError extends Error {}

export const need = (v: string | undefined, flag: string): string => {
  if (v === undefined || v === '') throw new UsageError(`--${flag} is required.`);
  return v;
};

/** The same command name with an unknown subcommand. */
export const unknownCommand = (name: string, sub: string | undefined): UsageError =>
  new UsageError(`Unknown command "${[name, sub].filter(Boolean).join(' ')}".`);
