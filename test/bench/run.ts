/**
 * `npm run bench`: the issues' benchmarks, printed as plain text. Not part of `npm test`.
 * One section alone: `npx tsx test/bench/<name>.bench.ts`.
 */
import { benchAcoustics } from './acoustics.bench';
import { benchDb } from './db.bench';
import { benchExport } from './export.bench';
import { benchExportExtras } from './export-extras.bench';
import { benchImport } from './import.bench';
import { benchParticipants } from './participants.bench';
import { benchRecordings } from './recordings.bench';
import { benchSandbox } from './sandbox.bench';
import { benchSpeech } from './speech.bench';
import { benchScheduler } from './scheduler.bench';
import { benchUi } from './ui.bench';
import { benchUploadOverhead } from './upload-overhead.bench';

const sections: [string, () => Promise<string[]>][] = [
  ['Upload overhead', () => benchUploadOverhead()],
  ['Sandbox latency and client throughput', () => benchSandbox()],
  ['Study database', () => benchDb()],
  ['Import validation and hashing (1,000 WAV files)', () => benchImport()],
  ['Speech estimate in one thread (Silero)', () => benchSpeech()],
  ['Local acoustic measures against Praat on the same files (acoustics)', () => benchAcoustics()],
  ['Scheduler with 10,000 pending recordings', () => benchScheduler()],
  ['Participants table query (10,000 participants, 100,000 recordings)', () => benchParticipants()],
  ['Recordings table query (100,000 recordings)', () => benchRecordings()],
  [
    'The window in browser mode: first screen (this build beside the unsplit one), charts of a 200-session participant, IPC, large tables',
    () => benchUi(),
  ],
  ['Export of 100,000 recordings (3.7 million values)', () => benchExport()],
  ['Export files for SPSS, Stata and Excel (10,000 recordings)', () => benchExportExtras()],
];

const only = process.argv.slice(2);
console.log(
  `Voicescope benchmarks — ${new Date().toISOString()} — node ${process.version}, ${process.platform} ${process.arch}`,
);
for (const [name, run] of sections) {
  if (only.length > 0 && !only.some((o) => name.toLowerCase().includes(o.toLowerCase()))) continue;
  const t0 = performance.now();
  const lines = await run();
  console.log(`\n## ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  for (const l of lines) console.log(l);
}
