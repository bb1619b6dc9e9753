/**
 * `npm run bench`: the benchmarks, printed as plain text. Not part of `npm test`.
 */
import { benchDb } from './db.bench';
import { benchExport } from './export.bench';
import { benchImport } from './import.bench';
import { benchSandbox } from './sandbox.bench';
import { benchScheduler } from './scheduler.bench';
import { benchUploadOverhead } from './upload-overhead.bench';

const sections: [string, () => Promise<string[]>][] = [
  ['Upload overhead', () => benchUploadOverhead()],
  ['Sandbox latency and client throughput', () => benchSandbox()],
  ['Study database', () => benchDb()],
  ['Import validation and hashing (1,000 WAV files)', () => benchImport()],
  ['Scheduler with 10,000 pending recordings', () => benchScheduler()],
  ['Export of 100,000 recordings (3.7 million values)', () => benchExport()],
];

console.log(`Voicescope benchmarks — ${new Date().toISOString()} — node ${process.version}, ${process.platform} ${process.arch}`);
for (const [name, run] of sections) {
  const t0 = performance.now();
  const lines = await run();
  console.log(`\n## ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  for (const l of lines) console.log(l);
}
