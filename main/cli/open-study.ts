/**
 * The study service a workspace command works on: the workspace's own file, or the PostgreSQL study
 * database named by `--database` or `$VOICESCOPE_DATABASE_URL`. A database that cannot be opened is
 * told in words and ends the command with exit code 10. A connection lost while the command runs is
 * said as the window says it, once, and again when it is back.
 */
import { askedDatabase, openChosenStudyService } from '../services/open-study-service';
import type { StudyService } from '../services/study-service';
import { defaultWorkspaceDir } from '../workspace/workspace';
import { EXIT, type CliValues } from './command';
import type { Output } from './output';

/** The study service, or the exit code when the study database cannot be opened (the reason already said). */
export const openCliStudyService = async (values: CliValues, out: Output): Promise<StudyService | number> => {
  const opened = await openChosenStudyService(
    {
      workspaceDir: values.home ?? defaultWorkspaceDir(),
      // A lost study database connection is said as it happens (the command keeps waiting), then its return.
      onEvent: (e) => {
        if (e.type === 'database-connection')
          out.say('database-connection', e.message, { state: e.state, at: e.at });
      },
    },
    askedDatabase(values.database, process.env),
  );
  if (!opened.ok) {
    out.problem(
      opened.error,
      'Check the study database address given with --database or $VOICESCOPE_DATABASE_URL.',
      { code: 'DATABASE' },
    );
    return EXIT.database;
  }
  if (opened.value.notice !== null) out.say('database', opened.value.notice, { where: opened.value.where });
  return opened.value.service;
};
