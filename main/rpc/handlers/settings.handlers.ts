import type { EngineSettings, settingsContract } from '../../../shared/contract/settings.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

/** The engine's tuning (how often to poll, how much to send at once). */
export const settingsHandlers = (d: HostDeps): HandlersOf<typeof settingsContract> => {
  const { service } = d;
  const view = async (): Promise<EngineSettings> => {
    const { poll, queue } = await service.settings();
    return {
      firstPollSeconds: poll.firstPollAfterMs / 1000,
      pollIntervalSeconds: poll.intervalMs / 1000,
      pollJitterSeconds: poll.jitterMs / 1000,
      requestsPerSecond: poll.globalRatePerSecond,
      uploadConcurrency: queue.uploadConcurrency,
      uploadsPerMinute: queue.uploadsPerMinute,
    };
  };
  return {
    'settings.get': async () => ok(await view()),
    async 'settings.save'(s) {
      const ms = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 1000));
      const poll = Object.fromEntries(
        Object.entries({
          firstPollAfterMs: ms(s.firstPollSeconds),
          intervalMs: ms(s.pollIntervalSeconds),
          jitterMs: ms(s.pollJitterSeconds),
          globalRatePerSecond: s.requestsPerSecond,
        }).filter(([, v]) => v !== undefined),
      );
      const queue = Object.fromEntries(
        Object.entries({
          uploadConcurrency: s.uploadConcurrency,
          uploadsPerMinute: s.uploadsPerMinute,
        }).filter(([, v]) => v !== undefined),
      );
      await service.saveSettings({ poll, queue });
      await service.restartEngine();
      return ok(await view());
    },
  };
};
