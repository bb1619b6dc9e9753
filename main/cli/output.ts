/** How the command line speaks: human-readable lines by default, one JSON object per line with --json. */
export interface Output {
  readonly json: boolean;
  /** A result or a step: a message for people, the same facts as an object for scripts. */
  say(kind: string, text: string, data?: Record<string, unknown>): void;
  /** A problem, on stderr. */
  problem(text: string, action: string, data?: Record<string, unknown>): void;
  /** A progress line, redrawn in place on a terminal, silent otherwise (and in JSON mode: throttled events). */
  progress(text: string, data?: Record<string, unknown>): void;
  done(): void;
}

export const createOutput = (
  json: boolean,
  out: NodeJS.WriteStream = process.stdout,
  errOut: NodeJS.WriteStream = process.stderr,
): Output => {
  const tty = !json && out.isTTY === true;
  let progressShown = false;
  let lastProgressJson = 0;
  const clear = () => {
    if (progressShown) out.write('\r\x1b[2K');
    progressShown = false;
  };
  return {
    json,
    say(kind, text, data = {}) {
      clear();
      out.write(json ? `${JSON.stringify({ kind, ...data, message: text })}\n` : `${text}\n`);
    },
    problem(text, action, data = {}) {
      clear();
      if (json) out.write(`${JSON.stringify({ kind: 'problem', ...data, message: text, action })}\n`);
      else errOut.write(`${text}\n  → ${action}\n`);
    },
    progress(text, data = {}) {
      if (tty) {
        out.write(`\r\x1b[2K${text}`);
        progressShown = true;
      } else if (json && Date.now() - lastProgressJson >= 1000) {
        lastProgressJson = Date.now();
        out.write(`${JSON.stringify({ kind: 'progress', ...data, message: text })}\n`);
      }
    },
    done: clear,
  };
};
