/**
 * `voicescope`: the study engine without a window, for lab servers and scheduled weekly imports.
 * The same services as the desktop app (main/services/study-service.ts). See docs/cli.md.
 *
 * This module dispatches: each command is a module under commands/ with its name, its help and its run
 * function (commands/index.ts lists them); `--help` and `<command> --help` are made from their help.
 *
 * Exit codes: 0 done (for wait: every analysis completed); 1 unexpected failure; 2 wrong usage; 3 some
 * files were refused (locally or by the service) or analyses failed; 4 the researcher must decide
 * (uncertain uploads, paused queue, missing or uncertain accounts); 5 the service or the profile cannot
 * be used (address, key, access); 6 `--timeout` ran out while waiting; 7 the export was not written
 * (nothing selected, folder taken or unwritable, disk full, cancelled); 8 some analyses got no result
 * in time (timed out, still re-checked; or unanswered); 10 the study database cannot be opened.
 */
import { classifyDbError } from '../db/db-errors';
import { EXIT, parseCommandLine, UsageError, type CliCommand } from './command';
import { COMMANDS } from './commands';
import { reportProblem } from './lookup';
import { createOutput } from './output';
import { openCliStudyService } from './open-study';

export { EXIT } from './command';

const USAGE = `Usage: voicescope <command> [options]        (also: npm run cli -- <command> [options])`;
const COMMON = `Options: --home <dir> (workspace; default $VOICESCOPE_HOME or ~/.voicescope), --json (JSON lines), -h, --help
  --database postgres://user@server:5432/study?sslmode=verify-full&sslrootcert=<ca.crt> (default $VOICESCOPE_DATABASE_URL):
  the study on a PostgreSQL server instead of the workspace's own file; give the password once in the address
Exit codes: 0 done, 1 failure, 2 usage, 3 refusals or failed analyses, 4 decisions needed, 5 service/profile unusable,
6 --timeout ran out, 7 not exported, 8 analyses without a result in time (timed out or unanswered),
10 the study database cannot be opened.`;

/** `voicescope --help`: every command's own help, in order. */
const HELP = `voicescope: the Voicescope study engine on the command line

${USAGE}

Commands:
${COMMANDS.map((c) => c.help).join('\n')}

${COMMON}`;

/** `voicescope <command> --help`: that command's help only. */
const commandHelp = (c: CliCommand): string => `${USAGE}\n\n${c.help}\n\n${COMMON}`;

export const main = async (argv: readonly string[]): Promise<number> => {
  let args;
  try {
    args = parseCommandLine(argv);
  } catch (e) {
    process.stderr.write(`voicescope: ${e instanceof Error ? e.message : String(e)}\n\n${HELP}\n`);
    return EXIT.usage;
  }
  const values = args.values;
  const [cmd, sub, ...rest] = args.positionals;
  const command = COMMANDS.find((c) => c.name === cmd);
  if (values.help && command) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return EXIT.ok;
  }
  if (values.help || !cmd) {
    process.stdout.write(`${HELP}\n`);
    return cmd || values.help ? EXIT.ok : EXIT.usage;
  }
  const input = { values, sub, rest, out: createOutput(values.json === true) };
  if (command?.workspace === false) return await command.run(input);
  const opened = await openCliStudyService(values, input.out);
  if (typeof opened === 'number') return opened;
  const svc = opened;
  try {
    if (!command) throw new UsageError(`Unknown command "${[cmd, sub].filter(Boolean).join(' ')}".`);
    return await command.run({ ...input, svc });
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`voicescope: ${e.message}\n`);
      return EXIT.usage;
    }
    const refused = svc.refusalByDatabase(e);
    if (refused) return reportProblem(input.out, refused);
    throw e;
  } finally {
    await svc.close();
  }
};

const isEntry = process.argv[1] !== undefined && /voicescope(\.ts|\.js|\.mjs|\.cjs)?$/.test(process.argv[1]);
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      // A study database that failed mid-way (a lost connection, a full disk) is told in the researcher's words.
      const db = classifyDbError(e);
      process.stderr.write(
        db
          ? `voicescope: ${db.message}\n  → ${db.action}\n`
          : `voicescope: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exitCode = EXIT.failure;
    },
  );
}
