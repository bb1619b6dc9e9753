/**
 * `npm run bench`: the benchmarks, printed as plain text. Not part of `npm test`.
 */
import { benchDb } from './db.bench';
import { benchSandbox } from './sandbox.bench';
import { benchUploadOverhead } from './upload-overhead.bench';

const sections: [string, () => Promise<string[]>][] = [
  ['Upload overhead', () => benchUploadOverhead()],
  ['Sandbox latency and client throughput', () => benchSandbox()],
  ['Study database', () => benchDb()],
];

console.log(`Voicescope benchmarks — ${new Date().toISOString()} — node ${process.version}, ${process.platform} ${process.arch}`);
for (const [name, run] of sections) {
  const t0 = performance.now();
  const lines = await run();
  console.log(`\n## ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  for (const l of lines) console.log(l);
}
