/** Every `voicescope` command, in the order `voicescope --help` lists them. */
import type { CliCommand } from '../command';
import { accountCommand } from './account.command';
import { attributesCommand } from './attributes.command';
import { auditCommand } from './audit.command';
import { batchCommand } from './batch.command';
import { curateCommand } from './curate.command';
import { exportCommand } from './export.command';
import { importCommand } from './import.command';
import { manifestTemplateCommand } from './manifest-template.command';
import { measureCommand } from './measure.command';
import { profileCommand } from './profile.command';
import { recheckCommand } from './recheck.command';
import { reliabilityCommand } from './reliability.command';
import { resolveCommand } from './resolve.command';
import { runCommand } from './run.command';
import { settingsCommand } from './settings.command';
import { statusCommand } from './status.command';
import { studyCommand } from './study.command';
import { usageCommand } from './usage.command';
import { visitsCommand } from './visits.command';
import { participantCommand } from './participant.command';
import { teamCommand } from './team.command';
import { waitCommand } from './wait.command';

export const COMMANDS: readonly CliCommand[] = [
  profileCommand,
  studyCommand,
  visitsCommand,
  participantCommand,
  importCommand,
  statusCommand,
  waitCommand,
  runCommand,
  usageCommand,
  resolveCommand,
  accountCommand,
  recheckCommand,
  batchCommand,
  settingsCommand,
  manifestTemplateCommand,
  exportCommand,
  reliabilityCommand,
  measureCommand,
  attributesCommand,
  auditCommand,
  curateCommand,
  teamCommand,
];
