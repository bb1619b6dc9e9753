/**
 * A recording in a format the service does not take, which Voicescope decodes (here stereo FLAC made by
 * Debian's ffmpeg): the preview says it is converted and uploaded when conversion is on, and refused
 * with "switch on conversion" when off; the commit writes the mono 16 kHz copy, keeps the original
 * unchanged, and the recording's verdict names the copy's hash and what decoded the original.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { parseWavHeader } from '../../../main/audio/wav';
import { commitImport } from '../../../main/import/import-commit';
import { planImport } from '../../../main/import/import-plan';
import type { ImportRequest } from '../../../shared/study';
import { makeWav } from '../../fixtures/audio';
import { itWithTool } from '../../support/reference-tools';
import { dbWithStudy, importDb, importDbWithStudy } from './study-db';

const dir = mkdtempSync(join(tmpdir(), 'vs-convert-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (paths: string[], convert: boolean): ImportRequest => ({
  studyId: 1,
  paths,
  filenamePattern: '{participant}_{session}.flac',
  timeZone: 'UTC',
  analyses: ['wellbeing'],
  isolateOldestSpeaker: false,
  convert,
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** 45 s of stereo 44.1 kHz speech (40 s of it speech) encoded by ffmpeg into `out`. */
const encodeSpeech = (out: string, seed: number, args: string[]): void => {
  const wav = join(dir, `speech-${seed}.wav`);
  writeFileSync(wav, makeWav({ seconds: 45, speechSeconds: 40, sampleRateHz: 44_100, channels: 2, seed }));
  const r = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', wav, ...args, out]);
  if (r.status !== 0) throw new Error(String(r.stderr));
};

describe('import of a format the service does not take, through the decoders', () => {
  itWithTool(
    'ffmpeg',
    'stereo FLAC: previewed as convertible, committed, converted to mono 16 kHz, the decoder named',
    async () => {
      const folder = join(dir, 'flac');
      mkdirSync(folder);
      const flac = join(folder, 'P001_s1.flac');
      encodeSpeech(flac, 7, ['-c:a', 'flac']);
      const original = sha(readFileSync(flac));

      const off = await planImport(importDbWithStudy(), request([folder], false));
      expect(off.files[0]).toMatchObject({ action: 'refused', verdict: { status: 'needs_conversion' } });
      expect(off.files[0]!.verdict.findings[0]!.action).toMatch(/Switch on conversion/);

      const db = dbWithStudy();
      const plan = await planImport(importDb(db), request([folder], true));
      expect(plan.files[0]).toMatchObject({
        action: 'convert_and_upload',
        verdict: { status: 'will_convert' },
      });

      const convertedDir = join(dir, 'converted');
      mkdirSync(convertedDir);
      const result = await commitImport(importDb(db), plan, { convertedDir, now: () => 0 });
      expect(result.conversionFailures).toEqual([]);
      const row = db
        .prepare(`SELECT upload_path, content_sha256, converted, verdict FROM recordings`)
        .get() as { upload_path: string; content_sha256: string; converted: number; verdict: string };
      expect(row.converted).toBe(1);
      expect(row.content_sha256).toBe(original);
      expect(sha(readFileSync(flac))).toBe(original); // the original is unchanged
      const copy = new Uint8Array(readFileSync(row.upload_path));
      const info = parseWavHeader(copy);
      expect(info.ok && info.value).toMatchObject({ channels: 1, sampleRateHz: 16_000 });
      const conversion = JSON.parse(row.verdict).conversion;
      expect(conversion).toMatchObject({
        sha256: sha(copy),
        channel: 1,
        resampledFromHz: 44_100,
        decodedBy: { container: 'flac', codec: 'flac' },
      });
      expect(conversion.decodedBy.decoder).toMatch(/\S/);
    },
    120_000,
  );

  itWithTool(
    'ffmpeg',
    'stereo MP3 is converted like stereo WAV; stereo AAC in MP4, which no decoder here reads, stays refused',
    async () => {
      const folder = join(dir, 'compressed');
      mkdirSync(folder);
      encodeSpeech(join(folder, 'P002_s1.mp3'), 8, ['-c:a', 'libmp3lame', '-b:a', '128k']);
      encodeSpeech(join(folder, 'P003_s1.m4a'), 8, ['-c:a', 'aac', '-b:a', '128k']);
      const db = dbWithStudy();
      const plan = await planImport(importDb(db), {
        ...request([folder], true),
        filenamePattern: '{participant}_{session}.*',
      });
      const byName = Object.fromEntries(plan.files.map((f) => [f.fileName, f]));
      expect(byName['P002_s1.mp3']).toMatchObject({ action: 'convert_and_upload', channels: 2 });
      expect(byName['P003_s1.m4a']).toMatchObject({ action: 'refused', verdict: { status: 'refused' } });
      const convertedDir = join(dir, 'converted-compressed');
      mkdirSync(convertedDir);
      const result = await commitImport(importDb(db), plan, { convertedDir, now: () => 0 });
      expect(result.conversionFailures).toEqual([]);
      const row = db.prepare(`SELECT verdict FROM recordings WHERE converted = 1`).get() as {
        verdict: string;
      };
      expect(JSON.parse(row.verdict).conversion).toMatchObject({
        channel: 1,
        decodedBy: { container: 'mp3', codec: 'mp3' },
      });
    },
    120_000,
  );
});
