/**
 * The engine against Praat itself (Debian's `praat`, scripts/validation/measure.praat) on a few short
 * synthetic vowels. Skipped where Praat is not installed; the full comparison is
 * `npx tsx scripts/validation/acoustics.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { encodeWav } from '../../fixtures/audio';
import { compareFile } from '../../../scripts/validation/acoustics';
import { vowel } from '../../../scripts/validation/synthetic';
import { describeWithTool } from '../../support/reference-tools';

const dir = mkdtempSync(join(tmpdir(), 'voicescope-praat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, x: Float32Array, rate: number): string => {
  const file = join(dir, `${name}.wav`);
  writeFileSync(file, encodeWav([x], { sampleRateHz: rate, format: 'pcm16' }));
  return file;
};

const rel = (a: number | null, b: number | null): number => Math.abs(a! - b!) / Math.abs(b!);
const abs = (a: number | null, b: number | null): number => Math.abs(a! - b!);

describeWithTool('praat', 'agreement with Praat', () => {
  it('agrees on a jittery vowel and a noisy vowel within the issue targets', () => {
    const files = [
      write(
        'jitter',
        vowel({ seconds: 1.5, sampleRate: 16000, f0: () => 120, periodSd: 0.01, seed: 2 }),
        16000,
      ),
      write(
        'noisy',
        vowel({
          seconds: 1.5,
          sampleRate: 22050,
          f0: (t) => 200 + 20 * t,
          amplitudeSd: 0.05,
          hnrDb: 12,
          seed: 3,
        }),
        22050,
      ),
    ];
    for (const file of files) {
      const { ours, praat } = compareFile(file, 'synthetic');
      expect(rel(ours.f0_mean_hz!, praat.f0_mean_hz!)).toBeLessThan(0.01);
      expect(abs(ours.intensity_mean_db!, praat.intensity_mean_db!)).toBeLessThan(0.1);
      expect(abs(ours.hnr_db!, praat.hnr_db!)).toBeLessThan(0.5);
      expect(rel(ours.f1_mean_hz!, praat.f1_mean_hz!)).toBeLessThan(0.03);
      expect(rel(ours.f2_mean_hz!, praat.f2_mean_hz!)).toBeLessThan(0.03);
      expect(rel(ours.jitter_local_pct!, praat.jitter_local_pct!)).toBeLessThan(0.1);
      expect(rel(ours.shimmer_local_pct!, praat.shimmer_local_pct!)).toBeLessThan(0.1);
      expect(abs(ours.pause_mean_s ?? 0, praat.pause_mean_s ?? 0)).toBeLessThan(0.05);
      expect(ours.pause_count).toBe(praat.pause_count);
    }
  }, 60_000);
});
