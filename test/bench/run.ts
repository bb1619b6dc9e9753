/**
 * `npm run bench`: the issues' benchmarks, printed as plain text. Not part of `npm test`.
 * One section alone: `npm run bench -- <name>` (its file's name, test/bench/<name>.bench.ts) or
 * `npx tsx test/bench/<name>.bench.ts`; a word of a section's title selects every section it is in.
 */
import { benchAcoustics } from './acoustics.bench';
import { benchDb } from './db.bench';
import { benchExport } from './export.bench';
import { benchExportExtras } from './export-extras.bench';
import { benchFormats } from './formats.bench';
import { benchImport } from './import.bench';
import { benchMoveStudy } from './move-study.bench';
import { benchParticipants } from './participants.bench';
import { benchRecordings } from './recordings.bench';
import { benchSandbox } from './sandbox.bench';
import { benchSpeech } from './speech.bench';
import { benchScheduler } from './scheduler.bench';
import { benchStore } from './store.bench';
import { benchTeam } from './team.bench';
import { benchUi } from './ui.bench';
import { benchUploadOverhead } from './upload-overhead.bench';
import { selectedSections, type BenchKey } from './sections';

const runners: Record<BenchKey, () => Promise<string[]>> = {
  'upload-overhead': benchUploadOverhead,
  sandbox: benchSandbox,
  db: benchDb,
  import: benchImport,
  speech: benchSpeech,
  formats: benchFormats,
  acoustics: benchAcoustics,
  scheduler: benchScheduler,
  participants: benchParticipants,
  recordings: benchRecordings,
  ui: benchUi,
  export: benchExport,
  'export-extras': benchExportExtras,
  store: benchStore,
  'move-study': benchMoveStudy,
  team: benchTeam,
};

const only = process.argv.slice(2);
console.log(
  `Voicescope benchmarks — ${new Date().toISOString()} — node ${process.version}, ${process.platform} ${process.arch}`,
);
for (const { key, title: name } of selectedSections(only)) {
  const run = runners[key];
  const t0 = performance.now();
  const lines = await run();
  console.log(`\n## ${name} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  for (const l of lines) console.log(l);
}
