/**
 * Sandbox latency per endpoint (as the client sees it, p50 and p95) and the request rate the client
 * sustains against the sandbox, side by side with bare fetch on the same endpoint. The sandbox runs in
 * its own process (the `npm run sandbox` command, scenario `fast`).
 */
import { createApiClient, type ApiClient } from '../../main/api/client';
import { bytesAudioSource } from '../../main/api/upload-body';
import { DEMO_API_KEY } from '../../main/sandbox/config';
import { makeWav } from '../fixtures/audio';
import { spawnTs, waitForLine } from '../support/spawn';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const timeEach = async (n: number, fn: () => Promise<unknown>): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
};

const sustained = async (
  seconds: number,
  concurrency: number,
  fn: () => Promise<boolean>,
): Promise<{ rps: number; failures: number }> => {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        if (await fn()) done++;
        else failures++;
      }
    }),
  );
  return { rps: done / seconds, failures };
};

export const benchSandbox = async (): Promise<string[]> => {
  // The command prints a new random key unless given one: the bench's client uses the demo key.
  const child = spawnTs('main/sandbox/cli.ts', [
    '--port',
    '0',
    '--scenario',
    'fast',
    '--api-key',
    DEMO_API_KEY,
  ]);
  try {
    const url = await waitForLine(child, 'Base URL: ');
    const lines: string[] = [];
    const wav = makeWav({ seconds: 60, speechSeconds: 45, sampleRateHz: 16_000, seed: 11 });
    for (const version of ['v1.3', 'v1.2'] as const) {
      const c: ApiClient = createApiClient({ profile: { baseUrl: url, version, apiKey: DEMO_API_KEY } });
      const acc = await c.createAccount();
      if (!acc.ok) throw new Error(`createAccount: ${acc.error.kind}`);
      const accountId = acc.value.account.accountId;
      const up = await c.upload({
        accountId,
        recordedAt: '2026-03-01T08:30:00Z',
        analyses: ['wellbeing', 'parkinsons'],
        audio: bytesAudioSource(wav),
      });
      if (up.status !== 'accepted') throw new Error(`upload: ${up.status}`);
      const rid = up.receipt.recordingId;
      await new Promise((r) => setTimeout(r, 1500)); // let `fast` processing complete, so polls return full results
      const rows: [string, number[]][] = [
        ['GET /ping', await timeEach(300, () => c.ping())],
        ['GET /usage/recordings', await timeEach(300, () => c.getUsage())],
        ['POST /accounts', await timeEach(200, () => c.createAccount())],
        ['GET /recordings/{id}/analysis', await timeEach(300, () => c.getAnalysis(rid))],
        [
          `POST /recordings (60 s WAV, ${(wav.byteLength / 1e6).toFixed(1)} MB)`,
          await timeEach(20, () =>
            c.upload({
              accountId,
              recordedAt: '2026-03-01T08:30:00Z',
              analyses: ['wellbeing'],
              audio: bytesAudioSource(wav),
            }),
          ),
        ],
      ];
      lines.push(`${version}: latency seen by the client (ms)`);
      for (const [name, xs] of rows)
        lines.push(
          `  ${name.padEnd(44)} p50 ${pct(xs, 50).toFixed(2).padStart(7)}  p95 ${pct(xs, 95).toFixed(2).padStart(7)}  (n=${xs.length})`,
        );

      const viaClient = await sustained(5, 16, async () => (await c.getAnalysis(rid)).ok);
      const bare = await sustained(5, 16, async () => {
        const res = await fetch(`${url}/${version}/recordings/${rid}/analysis`, {
          headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
        });
        await res.text();
        return res.ok;
      });
      lines.push(
        `  sustained GET analysis, 16 in flight, 5 s: client ${viaClient.rps.toFixed(0)} req/s (failures ${viaClient.failures}), ` +
          `bare fetch ${bare.rps.toFixed(0)} req/s; client / bare ${(viaClient.rps / bare.rps).toFixed(2)}`,
      );
    }
    return lines;
  } finally {
    child.kill('SIGTERM');
  }
};
