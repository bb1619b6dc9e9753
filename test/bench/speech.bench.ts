/**
 * The speech estimate's speed in one thread (target: at most 1 s per audio minute on the 2-core
 * development machine): a minute of speech-like audio at 16, 44.1 and 8 kHz, best of three runs, as
 * wall time and as this process's CPU time (the CPU time does not depend on what else the machine runs;
 * the load average is printed beside it). Alone: `npx tsx test/bench/speech.bench.ts`.
 */
import { loadavg } from 'node:os';
import { estimateSileroSpeech } from '../../main/audio/silero-speech';
import { makeSpeechLikeSignal } from '../fixtures/audio';

export const benchSpeech = async (): Promise<string[]> => {
  const out = [`load average ${loadavg()[0]!.toFixed(1)} on this machine while measuring`];
  for (const rate of [16_000, 44_100, 8_000]) {
    const x = makeSpeechLikeSignal({ seconds: 60, speechSeconds: 45, sampleRateHz: rate, seed: 7 });
    await estimateSileroSpeech(x.subarray(0, rate * 3), rate); // the model loaded once
    let wall = Infinity;
    let cpu = Infinity;
    let speech = 0;
    for (let run = 0; run < 3; run++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      speech = (await estimateSileroSpeech(x, rate)).speechSeconds;
      const c = process.cpuUsage(c0);
      wall = Math.min(wall, (performance.now() - t0) / 1000);
      cpu = Math.min(cpu, (c.user + c.system) / 1e6);
    }
    out.push(
      `${String(rate).padStart(6)} Hz: ${wall.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU per audio minute (one thread; estimate ${speech.toFixed(1)} s: 45 s of phrases, pauses within turns count)`,
    );
  }
  return out;
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchSpeech()) console.log(l);
