/**
 * The measuring pool hands each file's result to `onResult` once, and when `onResult` stores it (returns
 * a promise) the pool ends only after every result is stored; a result that cannot be stored fails
 * the pool. Files that cannot be read make quick, real results (a problem value each) for these tests.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PITCH_SETTINGS } from '../../../shared/acoustics/pitch-settings';
import { measureFiles } from '../../../main/acoustics/pool';

const missing = Array.from({ length: 6 }, (_, i) => join('/nonexistent-voicescope', `f${i}.wav`));
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the measuring pool with a result store that takes its time', () => {
  it('ends only after every result is stored, each once', async () => {
    const stored: number[] = [];
    const results = await measureFiles(missing, DEFAULT_PITCH_SETTINGS, {
      threads: 2,
      onResult: async (i) => {
        await later(250);
        stored.push(i);
      },
    });
    expect(results).toHaveLength(missing.length);
    expect(results.every((r) => !r.ok)).toBe(true);
    expect([...stored].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('fails when a result cannot be stored, and sends no more files', async () => {
    const handed: number[] = [];
    await expect(
      measureFiles(missing, DEFAULT_PITCH_SETTINGS, {
        threads: 1,
        onResult: async (i) => {
          handed.push(i);
          await later(5);
          if (i === 1) throw new Error('the disk is full');
        },
      }),
    ).rejects.toThrow('the disk is full');
    expect(handed.length).toBeLessThan(missing.length);
  });
});
