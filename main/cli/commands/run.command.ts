/** `voicescope run`: the engine for every profile, until SIGINT or SIGTERM. */
import { EXIT, type WorkspaceCommand } from '../command';

export const runCommand: WorkspaceCommand = {
  name: 'run',
  help: `  run                                       keep the engine running (all profiles) until stopped`,
  run: async ({ svc, out }) => {
    await svc.startEngine();
    out.say(
      'running',
      'The engine is running; stop it with Ctrl+C (uploads in flight are allowed to finish).',
    );
    // A pending promise does not keep Node alive: with nothing to do (no profile yet, an idle engine
    // whose timers are unref'd) the process would end at once. A ref'd timer holds it until a signal.
    const hold = setInterval(() => undefined, 1 << 30);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    clearInterval(hold);
    return EXIT.ok;
  },
};
