/**
 * The last line of defence for a long-running host (browser mode): an exception nothing caught, or a
 * promise nobody awaited that failed, is written to the log and the process keeps serving. Every socket
 * and server of the bridge has its own handler (main/rpc/ws-bridge.ts); this guard is for what a defect
 * lets slip past them, so a single bad request never takes the researcher's window down.
 */
export interface GuardLog {
  error(message: string, ...detail: unknown[]): void;
}

/** Installs the guard; returns a function that removes it (tests). */
export const guardProcess = (log: GuardLog): (() => void) => {
  const onException = (e: unknown) => {
    log.error('An unexpected error was caught; Voicescope keeps running.', e);
  };
  const onRejection = (e: unknown) => {
    log.error('An unexpected failed promise was caught; Voicescope keeps running.', e);
  };
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
};
