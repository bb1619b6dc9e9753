/**
 * CPPS against Praat, clip by clip: our `cpps` beside Praat's "To PowerCepstrogram" / "Get CPPS" with the
 * settings of docs/acoustics.md ("Straight", "Robust"), and the difference.
 *
 *   npx tsx scripts/validation/cpps.ts --corpus <dir of .wav> [--praat-cache <dir>]
 *
 * Praat's value comes from the --praat-cache of scripts/validation/acoustics.ts when it holds the clip,
 * otherwise from running scripts/validation/measure.praat.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { parseWavHeader, readMonoSamples } from '../../main/audio/wav';
import { cpps } from '../../main/acoustics/cepstrum';
import { runPraat } from './acoustics';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const praatCpps = (file: string, cache: string | undefined): number | null => {
  if (cache !== undefined) {
    const kept = readdirSync(cache).find((f) => f.startsWith(`${basename(file)}-`) && f.endsWith('.json'));
    if (kept !== undefined) {
      const run = JSON.parse(readFileSync(join(cache, kept), 'utf8')) as {
        praat: { measures: Record<string, number | null> };
      };
      const value = run.praat.measures['cpps_db'];
      if (value !== undefined) return value;
    }
  }
  return runPraat(file).measures['cpps_db'] ?? null;
};

const corpus = arg('--corpus');
if (corpus === undefined) throw new Error('--corpus <dir of .wav> is required');
const cache = arg('--praat-cache');
let within = 0;
let count = 0;
console.log('clip\tours_db\tpraat_db\tdiff_db');
for (const name of readdirSync(corpus)
  .filter((f) => f.endsWith('.wav'))
  .sort()) {
  const file = join(corpus, name);
  const bytes = new Uint8Array(readFileSync(file));
  const info = parseWavHeader(bytes);
  if (!info.ok) throw new Error(`${file}: ${info.error.detail}`);
  const ours = cpps(readMonoSamples(bytes, info.value), info.value.sampleRateHz);
  const praat = praatCpps(file, cache);
  if (ours === null || praat === null) {
    console.log(`${name}\t${ours ?? '-'}\t${praat ?? '-'}\t-`);
    continue;
  }
  count++;
  if (Math.abs(ours - praat) <= 0.5) within++;
  console.log(`${name}\t${ours.toFixed(3)}\t${praat.toFixed(3)}\t${(ours - praat).toFixed(3)}`);
}
console.log(`within 0.5 dB: ${within} of ${count}`);
