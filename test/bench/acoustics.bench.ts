/**
 * The local acoustic measures against Praat on the same files in the same run (speed target:
 * all measures of a recording in at most the time Praat takes for the same work). For each file, runs
 * alternate between the engine (`measureSamples`, decoding excluded) and Praat
 * (scripts/validation/measure.praat, its own stopwatch: startup and file reading excluded); the median
 * of the runs per file is taken, and the ratio is the engine's total over Praat's total. Two clocks:
 * wall time (what the validation harness reports; it depends on what else the machine runs, so the load
 * average is printed) and CPU time, which does not: this process's CPU time around `measureSamples`,
 * and Praat's as the CPU time of a `praat` process running measure.praat less that of one that only
 * reads the same file (startup and reading excluded, as with the stopwatch).
 *
 * Files: speech-like signals built here (test/fixtures/audio.ts, 60 s at 16 kHz and 30 s at 8 kHz) and a
 * 20 s sustained vowel with jitter, shimmer and noise (scripts/validation/synthetic.ts), so no network
 * is needed; with ACOUSTICS_BENCH_CORPUS=<folder>, every .wav under it as well (e.g. the validation
 * clips of scripts/validation/build-clips.sh). ACOUSTICS_BENCH_RUNS sets the runs per file (default 3).
 * Alone: `npx tsx test/bench/acoustics.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { measureSamples } from '../../main/acoustics/measure';
import { parseWavHeader, readMonoSamples } from '../../main/audio/wav';
import { praatAvailable, runPraat } from '../../scripts/validation/acoustics';
import { vowel } from '../../scripts/validation/synthetic';
import { encodeWav, makeSpeechLikeSignal } from '../fixtures/audio';

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : 0.5 * (s[m - 1]! + s[m]!);
};

const MEASURE_SCRIPT = resolve(import.meta.dirname, '../../scripts/validation/measure.praat');
const READ_ONLY_SCRIPT = 'form Read\n  sentence file\nendform\nRead from file: file$\n';

/** CPU seconds (user + system) of one `praat --run <script> <args>` process, from the shell's `times`. */
const praatCpuSeconds = (script: string, args: readonly string[]): number => {
  const r = spawnSync('bash', ['-c', 'praat --run "$@" > /dev/null 2>&1; times', 'praat', script, ...args], {
    encoding: 'utf8',
  });
  const children = r.stdout.trim().split('\n').at(-1) ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => 60 * Number(m[1]) + Number(m[2]));
  return secs.length === 2 ? secs[0]! + secs[1]! : NaN;
};

/** The built files, written into `dir`: name and path. */
const builtFiles = (dir: string): { name: string; path: string }[] => {
  const made: [string, Float32Array, number][] = [
    [
      'speech-like-60s-16k',
      makeSpeechLikeSignal({ seconds: 60, speechSeconds: 45, sampleRateHz: 16_000, seed: 7 }),
      16_000,
    ],
    [
      'speech-like-30s-8k',
      makeSpeechLikeSignal({ seconds: 30, speechSeconds: 22, sampleRateHz: 8_000, seed: 11 }),
      8_000,
    ],
    [
      'vowel-20s-16k',
      vowel({
        seconds: 20,
        sampleRate: 16_000,
        f0: (t) => 140 * 2 ** ((2 * Math.sin(2 * Math.PI * 0.3 * t)) / 12),
        periodSd: 0.01,
        amplitudeSd: 0.05,
        hnrDb: 15,
        seed: 5,
      }),
      16_000,
    ],
  ];
  return made.map(([name, samples, rate]) => {
    const path = join(dir, `${name}.wav`);
    writeFileSync(path, encodeWav([samples], { format: 'pcm16', sampleRateHz: rate }));
    return { name, path };
  });
};

const corpusFiles = (dir: string): { name: string; path: string }[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.toLowerCase().endsWith('.wav'))
    .sort()
    .map((f) => ({ name: f, path: join(dir, f) }));

export const benchAcoustics = async (): Promise<string[]> => {
  const runs = Math.max(1, Number(process.env.ACOUSTICS_BENCH_RUNS ?? 3) || 3);
  const havePraat = praatAvailable();
  const out = [
    `load average ${loadavg()[0]!.toFixed(1)} on this machine while measuring; median of ${runs} runs per file, engine and Praat alternating`,
  ];
  if (!havePraat)
    out.push('Praat is not installed (`praat` not on PATH): the engine alone is timed, no ratio.');
  const dir = mkdtempSync(join(tmpdir(), 'voicescope-acoustics-bench-'));
  const readOnly = join(dir, 'read-only.praat');
  writeFileSync(readOnly, READ_ONLY_SCRIPT);
  try {
    const corpus = process.env.ACOUSTICS_BENCH_CORPUS;
    const groups: [string, { name: string; path: string }[]][] = [['built here', builtFiles(dir)]];
    if (corpus !== undefined && corpus !== '') groups.push([`corpus ${corpus}`, corpusFiles(corpus)]);
    else out.push('No corpus (set ACOUSTICS_BENCH_CORPUS=<folder of .wav> to time real recordings too).');
    for (const [label, files] of groups) {
      let audio = 0;
      const totals = { oursWall: 0, oursCpu: 0, praatWall: 0, praatCpu: 0 };
      for (const f of files) {
        const bytes = new Uint8Array(readFileSync(f.path));
        const header = parseWavHeader(bytes);
        if (!header.ok) {
          out.push(`  ${f.name}: not a readable WAV file, skipped`);
          continue;
        }
        const samples = readMonoSamples(bytes, header.value);
        const rate = header.value.sampleRateHz;
        const seconds = samples.length / rate;
        const oursWall: number[] = [];
        const oursCpu: number[] = [];
        const praatWall: number[] = [];
        const praatCpu: number[] = [];
        for (let r = 0; r < runs; r++) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          measureSamples(samples, rate);
          oursWall.push((performance.now() - t0) / 1000);
          const c = process.cpuUsage(c0);
          oursCpu.push((c.user + c.system) / 1e6);
          if (!havePraat) continue;
          praatWall.push(runPraat(f.path).seconds);
          praatCpu.push(
            praatCpuSeconds(MEASURE_SCRIPT, [f.path, '75', '500', '-']) - praatCpuSeconds(readOnly, [f.path]),
          );
        }
        const ow = median(oursWall);
        const oc = median(oursCpu);
        const pw = havePraat ? median(praatWall) : NaN;
        const pc = havePraat ? median(praatCpu) : NaN;
        audio += seconds;
        totals.oursWall += ow;
        totals.oursCpu += oc;
        totals.praatWall += pw;
        totals.praatCpu += pc;
        out.push(
          `  ${f.name} (${seconds.toFixed(1)} s): engine ${ow.toFixed(2)} s wall, ${oc.toFixed(2)} s CPU` +
            (havePraat
              ? `; Praat ${pw.toFixed(2)} s wall, ${pc.toFixed(2)} s CPU; ratio ${(ow / pw).toFixed(2)} wall, ${(oc / pc).toFixed(2)} CPU`
              : ''),
        );
      }
      const perMinute = (x: number): string => ((60 * x) / (audio || 1)).toFixed(2);
      out.push(
        `${label}: ${audio.toFixed(1)} s of audio; engine ${perMinute(totals.oursWall)} s wall, ${perMinute(totals.oursCpu)} s CPU per audio minute` +
          (havePraat
            ? `; Praat ${perMinute(totals.praatWall)} s wall, ${perMinute(totals.praatCpu)} s CPU per audio minute; ratio engine/Praat ${(totals.oursWall / totals.praatWall).toFixed(2)} wall, ${(totals.oursCpu / totals.praatCpu).toFixed(2)} CPU (target <= 1)`
            : ''),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchAcoustics()) console.log(l);
