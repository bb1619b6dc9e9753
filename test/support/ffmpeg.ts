/**
 * Runs Debian's ffmpeg (a test tool, scripts/test-tools.mjs) quietly, to make fixtures: `input` is
 * handed to it on standard input (`-i pipe:0`). Returns what it wrote to standard output; throws with
 * its message when it fails.
 */
import { spawnSync } from 'node:child_process';

export const ffmpeg = (args: readonly string[], input?: Uint8Array): Buffer => {
  const r = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', ...args], {
    maxBuffer: 1 << 30,
    ...(input ? { input } : {}),
  });
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${String(r.stderr)}`);
  return r.stdout;
};
