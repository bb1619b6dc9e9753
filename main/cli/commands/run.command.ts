/** `voicescope run`: the engine for every profile, until SIGINT or SIGTERM. */
import { EXIT, type WorkspaceCommand } from '../command';

export const runCommand: WorkspaceCommand = {
  name: 'run',
  help: `  run                                       keep the engine running (all profiles) until stopped`,
  run: async ({ svc, out }) => {
    svc.startEngine();
    out.say(
      'running',
      'The engine is running; stop it with Ctrl+C (uploads in flight are allowed to finish).',
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return EXIT.ok;
  },
};
