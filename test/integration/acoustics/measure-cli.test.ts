/**
 * `voicescope measure`: a lab measures a folder of recordings without a study, as with a Praat script.
 * One JSON object per file with `file` and every measure key, a CSV with the same columns, the pitch
 * range from the command line, every decodable format (FLAC and MP3 made by Debian's ffmpeg from the
 * WAV), and a file that cannot be measured reported with what to do, without stopping the rest.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MEASURE_KEYS } from '../../../main/acoustics/measures';
import { EXIT } from '../../../main/cli/voicescope';
import { vowel } from '../../../scripts/validation/synthetic';
import { encodeWav } from '../../fixtures/audio';
import { ffmpeg } from '../../support/ffmpeg';
import { voicescopeNodeArgs } from '../../support/cli-bundle';

const root = mkdtempSync(join(tmpdir(), 'vs-measure-'));
const folder = join(root, 'recordings');

const run = (args: string[]): Promise<{ code: number; lines: Record<string, unknown>[]; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...voicescopeNodeArgs(), ...args]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) =>
      resolve({
        code: code ?? -1,
        lines: out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        stderr: err,
      }),
    );
  });

beforeAll(() => {
  mkdirSync(join(folder, 'session-2'), { recursive: true });
  const write = (path: string, f0: number): void =>
    writeFileSync(
      path,
      encodeWav([vowel({ seconds: 1.2, sampleRate: 16000, f0: () => f0, seed: f0 })], {
        sampleRateHz: 16000,
        format: 'pcm16',
      }),
    );
  write(join(folder, 'p01.wav'), 120);
  write(join(folder, 'session-2', 'p02.wav'), 220);
  writeFileSync(join(folder, 'notes.txt'), 'not audio');
  writeFileSync(join(root, 'broken.wav'), 'RIFF but not really');
  const wav = readFileSync(join(folder, 'p01.wav'));
  mkdirSync(join(root, 'formats'));
  writeFileSync(join(root, 'formats', 'p01.flac'), ffmpeg(['-i', 'pipe:0', '-f', 'flac', 'pipe:1'], wav));
  writeFileSync(
    join(root, 'formats', 'p01.mp3'),
    ffmpeg(['-i', 'pipe:0', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', 'pipe:1'], wav),
  );
  // An MP4 needs a seekable output: written to the file itself.
  ffmpeg(['-i', 'pipe:0', '-c:a', 'aac', '-b:a', '96k', join(root, 'formats', 'p01.m4a')], wav);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('voicescope measure', () => {
  it('measures every WAV file of a folder and prints one JSON object per file with every measure', async () => {
    const csv = join(root, 'measures.csv');
    const r = await run(['measure', folder, '--json', '--csv', csv]);
    expect(r.code).toBe(EXIT.ok);
    const rows = r.lines.filter((l) => l.kind === 'measures');
    expect(rows.map((l) => String(l.file).slice(folder.length + 1))).toEqual([
      'p01.wav',
      'session-2/p02.wav',
    ]);
    for (const row of rows) for (const k of MEASURE_KEYS) expect(row).toHaveProperty(k);
    expect(rows[0]!.f0_mean_hz).toBeCloseTo(120, -0.5);
    expect(rows[1]!.f0_mean_hz).toBeCloseTo(220, -0.5);
    expect(rows[0]!.settings).toEqual({ pitchFloor: 75, pitchCeiling: 500 });

    const [header, ...lines] = readFileSync(csv, 'utf8').trim().split('\n');
    expect(header!.split(',')).toEqual(['file', ...MEASURE_KEYS, 'quality_verdict', 'quality_reasons']);
    expect(lines).toHaveLength(2);
  }, 60_000);

  it('takes the pitch range from the command line, and reports a file it cannot measure', async () => {
    const r = await run([
      'measure',
      join(folder, 'p01.wav'),
      join(root, 'broken.wav'),
      '--json',
      '--pitch-floor',
      '100',
      '--pitch-ceiling',
      '300',
    ]);
    expect(r.code).toBe(EXIT.refused);
    const [row] = r.lines.filter((l) => l.kind === 'measures');
    expect(row!.settings).toEqual({ pitchFloor: 100, pitchCeiling: 300 });
    expect(row!.f0_mean_hz).toBeCloseTo(120, -0.5);
    const problem = r.lines.find((l) => l.kind === 'problem');
    expect(problem?.file).toBe(join(root, 'broken.wav'));
  }, 60_000);

  it('measures every format it decodes as the WAV they were made from, and says what to do with AAC', async () => {
    const formats = await run(['measure', join(folder, 'p01.wav'), join(root, 'formats'), '--json']);
    expect(formats.code).toBe(EXIT.refused);
    const [wav, ...rows] = formats.lines.filter((l) => l.kind === 'measures');
    expect(rows.map((l) => String(l.file).slice(root.length + 1))).toEqual([
      'formats/p01.flac',
      'formats/p01.mp3',
    ]);
    // FLAC is lossless: every measure as the WAV's.
    for (const k of MEASURE_KEYS) expect(rows[0]![k]).toEqual(wav![k]);
    expect(rows[1]!.f0_mean_hz).toBeCloseTo(wav!.f0_mean_hz as number, 0);
    const aac = formats.lines.find((l) => l.kind === 'problem');
    expect(aac?.file).toBe(join(root, 'formats', 'p01.m4a'));
    expect(String(aac?.action)).toContain('Convert it to WAV');
  }, 60_000);

  it('refuses a pitch range that is not one', async () => {
    const r = await run(['measure', folder, '--pitch-floor', '300', '--pitch-ceiling', '100']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('--pitch-ceiling must be higher than --pitch-floor');
  }, 60_000);
});
