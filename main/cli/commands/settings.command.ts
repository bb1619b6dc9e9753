/** `voicescope settings`: shows or tunes the poller and the queue (values are brought within the specification). */
import { EXIT, UsageError, type WorkspaceCommand } from '../command';

const num = (x: string | undefined, flag: string) => {
  if (x === undefined) return undefined;
  const n = Number(x);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && flag !== 'poll-jitter' && flag !== 'recheck-for'))
    throw new UsageError(`--${flag} must be a positive number.`);
  return n;
};

export const settingsCommand: WorkspaceCommand = {
  name: 'settings',
  help: `  settings [--first-poll <s>] [--poll-interval <s>] [--poll-jitter <s>] [--budget <requests/s>]
           [--poll-timeout <s>] [--recheck-interval <s>] [--recheck-for <s>]
           [--upload-concurrency <n>] [--uploads-per-minute <n>]
                                            show or tune the poller and the queue (never under 5 s)`,
  run: async ({ svc, out, values: v }) => {
    const poll = Object.fromEntries(
      Object.entries({
        firstPollAfterMs: num(v['first-poll'], 'first-poll'),
        intervalMs: num(v['poll-interval'], 'poll-interval'),
        jitterMs: num(v['poll-jitter'], 'poll-jitter'),
        globalRatePerSecond: num(v.budget, 'budget'),
        timeoutMs: num(v['poll-timeout'], 'poll-timeout'),
        slowIntervalMs: num(v['recheck-interval'], 'recheck-interval'),
        slowForMs: num(v['recheck-for'], 'recheck-for'),
      })
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, k === 'globalRatePerSecond' ? x : x! * 1000]),
    );
    const queue = Object.fromEntries(
      Object.entries({
        uploadConcurrency: num(v['upload-concurrency'], 'upload-concurrency'),
        uploadsPerMinute: num(v['uploads-per-minute'], 'uploads-per-minute'),
      }).filter(([, x]) => x !== undefined),
    );
    const s =
      Object.keys(poll).length || Object.keys(queue).length
        ? await svc.saveSettings({ poll, queue })
        : await svc.settings();
    const sec = (ms: number) => `${ms / 1000} s`;
    out.say(
      'settings',
      `Polling: first after ${sec(s.poll.firstPollAfterMs)}, then every ${sec(s.poll.intervalMs)} ± ${sec(s.poll.jitterMs)}; timed out after ${sec(s.poll.timeoutMs)}, then re-checked every ${sec(s.poll.slowIntervalMs)} for ${sec(s.poll.slowForMs)}; at most ${s.poll.globalRatePerSecond} requests/s (burst ${s.poll.globalBurst}).\nUploads: ${s.queue.uploadConcurrency} at once, at most ${s.queue.uploadsPerMinute} per minute.`,
      { settings: s },
    );
    return EXIT.ok;
  },
};
