/**
 * One folder straight from many devices: the same speech encoded by Debian's ffmpeg into every format
 * a study meets (WAV in PCM, float, IMA ADPCM and µ-law, stereo WAV, FLAC, AIFF, CAF, MP3, Ogg Vorbis,
 * Ogg Opus, WebM Opus as browsers record, stereo AAC in M4A as voice-memo apps write). The preview gives
 * each file its verdict: sent as it is, converted (with conversion on; "switch on conversion" with it
 * off), or refused with the reason (AAC: no decoder with a fitting licence), and its duration and speech
 * read from its decoded audio (the speech within 0.5 s of the WAV's). With conversion on, the
 * commit converts every file it must, and each converted copy is accepted by the sandbox's upload
 * validation (the lab sandbox, through the product's own client). AMR and 3GP are left out: this ffmpeg
 * has no AMR encoder.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createApiClient } from '../../../main/api/client';
import { fileAudioSource } from '../../../main/api/upload-body';
import { commitImport } from '../../../main/import/import-commit';
import { planImport } from '../../../main/import/import-plan';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import type { Sandbox } from '../../../main/sandbox/server';
import type { ImportPlan, ImportRequest, PlannedAction } from '../../../shared/study';
import { makeWav } from '../../fixtures/audio';
import { startLabSandbox } from '../../support/lab-sandbox';
import { hasTool, itWithTool } from '../../support/reference-tools';
import { dbWithStudy, importDb, importDbWithStudy } from './study-db';

const dir = mkdtempSync(join(tmpdir(), 'vs-mixed-formats-'));
const folder = join(dir, 'from-the-devices');
let sandbox: Sandbox;

/** The file, how ffmpeg makes it from 16 kHz mono speech, and what the preview does with it (conversion on, off). */
const FILES: readonly { name: string; args: string[]; on: PlannedAction; off: PlannedAction }[] = [
  { name: 'P01_pcm.wav', args: ['-c:a', 'pcm_s16le'], on: 'upload', off: 'upload' },
  { name: 'P02_float.wav', args: ['-c:a', 'pcm_f32le'], on: 'upload', off: 'upload' },
  { name: 'P03_ima.wav', args: ['-c:a', 'adpcm_ima_wav'], on: 'convert_and_upload', off: 'refused' },
  {
    name: 'P04_mulaw.wav',
    args: ['-ar', '8000', '-c:a', 'pcm_mulaw'],
    on: 'convert_and_upload',
    off: 'refused',
  },
  {
    name: 'P05_stereo.wav',
    args: ['-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le'],
    on: 'convert_and_upload',
    off: 'refused',
  },
  {
    name: 'P06_field.flac',
    args: ['-ac', '2', '-ar', '48000', '-c:a', 'flac'],
    on: 'convert_and_upload',
    off: 'refused',
  },
  {
    name: 'P07_editor.aiff',
    args: ['-ar', '44100', '-c:a', 'pcm_s16be'],
    on: 'convert_and_upload',
    off: 'refused',
  },
  { name: 'P08_editor.caf', args: ['-c:a', 'pcm_s16le'], on: 'convert_and_upload', off: 'refused' },
  { name: 'P09_memo.mp3', args: ['-c:a', 'libmp3lame', '-b:a', '64k'], on: 'upload', off: 'upload' },
  { name: 'P10_vorbis.ogg', args: ['-c:a', 'libvorbis', '-b:a', '64k'], on: 'upload', off: 'upload' },
  { name: 'P11_opus.ogg', args: ['-c:a', 'libopus', '-b:a', '48k'], on: 'upload', off: 'upload' },
  {
    name: 'P12_browser.webm',
    args: ['-ac', '2', '-ar', '48000', '-c:a', 'libopus', '-b:a', '64k'],
    on: 'convert_and_upload',
    off: 'refused',
  },
  {
    name: 'P13_memo.m4a',
    args: ['-ac', '2', '-ar', '48000', '-c:a', 'aac', '-b:a', '128k'],
    on: 'refused',
    off: 'refused',
  },
];

const request = (convert: boolean): ImportRequest => ({
  studyId: 1,
  paths: [folder],
  filenamePattern: '{participant}_{session}.*',
  timeZone: 'UTC',
  analyses: ['wellbeing'],
  isolateOldestSpeaker: false,
  convert,
});

const actions = (plan: ImportPlan) => Object.fromEntries(plan.files.map((f) => [f.fileName, f.action]));

beforeAll(async () => {
  if (!hasTool('ffmpeg')) return;
  mkdirSync(folder);
  const speech = join(dir, 'speech.wav');
  writeFileSync(speech, makeWav({ seconds: 45, speechSeconds: 40, sampleRateHz: 16_000, seed: 31 }));
  for (const f of FILES) {
    const r = spawnSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      speech,
      ...f.args,
      join(folder, f.name),
    ]);
    if (r.status !== 0) throw new Error(`${f.name}: ${String(r.stderr)}`);
  }
  sandbox = await startLabSandbox();
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a folder that mixes every format', () => {
  itWithTool(
    'ffmpeg',
    'each file gets its verdict, with conversion off and on',
    async () => {
      const off = await planImport(importDbWithStudy(), request(false));
      const on = await planImport(importDbWithStudy(), request(true));
      expect(actions(off)).toEqual(Object.fromEntries(FILES.map((f) => [f.name, f.off])));
      expect(actions(on)).toEqual(Object.fromEntries(FILES.map((f) => [f.name, f.on])));
      const aac = on.files.find((f) => f.fileName === 'P13_memo.m4a')!;
      expect(aac.verdict.findings.find((f) => f.code === 'not_mono')).toMatchObject({
        fixedByConversion: false,
      });
      // Every file's facts are read from its decoded audio, whatever its format; its speech is the WAV's.
      const wav = on.files.find((f) => f.fileName === 'P01_pcm.wav')!;
      for (const f of on.files.filter((x) => x.fileName !== 'P13_memo.m4a')) {
        expect(f.durationSeconds, f.fileName).toBeGreaterThan(44.9);
        expect(f.durationSeconds, f.fileName).toBeLessThan(45.1);
        expect(Math.abs(f.speechSeconds! - wav.speechSeconds!), f.fileName).toBeLessThanOrEqual(0.5);
      }
      expect(on.files.find((f) => f.fileName === 'P06_field.flac')).toMatchObject({
        channels: 2,
        sampleRateHz: 48_000,
      });
      expect(aac.speechSeconds).toBeNull();
      for (const f of off.files.filter(
        (x) => FILES.find((y) => y.name === x.fileName)!.on === 'convert_and_upload',
      ))
        expect(f.verdict.status, f.fileName).toBe('needs_conversion');
    },
    300_000,
  );

  itWithTool(
    'ffmpeg',
    'with conversion on, every file that must be is converted, and the sandbox accepts each copy',
    async () => {
      const db = dbWithStudy();
      const plan = await planImport(importDb(db), request(true));
      const convertedDir = join(dir, 'converted');
      mkdirSync(convertedDir);
      const result = await commitImport(importDb(db), plan, { convertedDir, now: () => 0 });
      expect(result.conversionFailures).toEqual([]);
      const rows = db
        .prepare(
          `SELECT source_path, upload_path, verdict FROM recordings WHERE converted = 1 ORDER BY source_path`,
        )
        .all() as { source_path: string; upload_path: string; verdict: string }[];
      const mustConvert = FILES.filter((f) => f.on === 'convert_and_upload').map((f) => f.name);
      expect(rows.map((r) => r.source_path.split('/').pop())).toEqual(mustConvert);

      const client = createApiClient({
        profile: { baseUrl: sandbox.url, version: 'v1.3', apiKey: DEMO_API_KEY },
        sleep: async () => {},
        random: () => 0.5,
      });
      const account = await client.createAccount();
      if (!account.ok) throw new Error(account.error.kind);
      for (const row of rows) {
        expect(JSON.parse(row.verdict).conversion.decodedBy.decoder, row.source_path).toMatch(/\S/);
        const sent = await client.upload({
          accountId: account.value.account.accountId,
          recordedAt: '2026-03-02T09:00:00Z',
          analyses: ['wellbeing'],
          audio: await fileAudioSource(row.upload_path),
        });
        expect(sent.status, row.source_path).toBe('accepted');
      }
    },
    300_000,
  );
});
