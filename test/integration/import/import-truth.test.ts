/**
 * The import preview tells the truth about every file, with files made as a researcher would meet them:
 * a sparse WAV over 2 GiB, six channels with the speaker on the centre channel, 8 kHz phone audio.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planImport } from '../../../main/import/import-plan';
import type { ImportRequest } from '../../../shared/study';
import { encodeWav, makeSpeechLikeSignal } from '../../fixtures/audio';
import { importDbWithStudy } from './study-db';

const dir = mkdtempSync(join(tmpdir(), 'vs-truth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (paths: string[], over: Partial<ImportRequest> = {}): ImportRequest => ({
  studyId: 1,
  paths,
  filenamePattern: '{participant}_{session}.wav',
  timeZone: 'UTC',
  analyses: ['wellbeing'],
  isolateOldestSpeaker: false,
  convert: false,
  ...over,
});

describe('import preview: the truth about every file', () => {
  it('a sparse WAV over 2 GiB is refused at once, without reading it, and the rest of the preview goes on', async () => {
    const folder = join(dir, 'big');
    rmSync(folder, { recursive: true, force: true });
    const { mkdirSync, truncateSync } = await import('node:fs');
    mkdirSync(folder);
    const header = encodeWav([new Float32Array(0)], { sampleRateHz: 44_100, format: 'pcm16' });
    const big = join(folder, 'P001_s1.wav');
    const fd = openSync(big, 'w');
    writeSync(fd, header);
    closeSync(fd);
    const size = Math.round(2.2 * 1024 ** 3);
    truncateSync(big, size);
    // Patch the data size so the header describes the whole file.
    const dataSize = size - header.length;
    const patch = openSync(big, 'r+');
    const b = Buffer.alloc(4);
    b.writeUInt32LE(Math.min(0xffffffff, dataSize));
    writeSync(patch, b, 0, 4, header.length - 4);
    closeSync(patch);
    const speech = makeSpeechLikeSignal({ seconds: 40, speechSeconds: 36, sampleRateHz: 16_000, seed: 3 });
    writeFileSync(
      join(folder, 'P002_s1.wav'),
      encodeWav([speech], { sampleRateHz: 16_000, format: 'pcm16' }),
    );
    const t = performance.now();
    const plan = await planImport(importDbWithStudy(), request([folder]));
    expect(performance.now() - t).toBeLessThan(60_000);
    const [bigFile, small] = plan.files;
    expect(bigFile).toMatchObject({ action: 'refused', sha256: null, format: 'wav' });
    expect(bigFile!.verdict.findings.map((f) => f.code)).toContain('too_large');
    expect(small).toMatchObject({ action: 'upload' });
  }, 120_000);

  it('six channels with the speaker on the centre channel: auto sends the centre channel, measured alone', async () => {
    const folder = join(dir, 'six');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder);
    const speech = makeSpeechLikeSignal({ seconds: 40, speechSeconds: 36, sampleRateHz: 16_000, seed: 9 });
    const silent = new Float32Array(speech.length);
    const channels = [silent, silent, speech, silent, silent, silent];
    writeFileSync(
      join(folder, 'P003_s1.wav'),
      encodeWav(channels, { sampleRateHz: 16_000, format: 'pcm16' }),
    );
    const off = await planImport(importDbWithStudy(), request([folder]));
    expect(off.files[0]).toMatchObject({ action: 'refused', verdict: { status: 'needs_conversion' } });
    const on = await planImport(importDbWithStudy(), request([folder], { convert: true }));
    expect(on.files[0]).toMatchObject({ action: 'convert_and_upload', channels: 6 });
    expect(on.files[0]!.verdict.speech).toMatchObject({ channelSent: 3 });
    expect(on.files[0]!.speechSeconds!).toBeGreaterThan(34);
  }, 120_000);

  it('a channel chosen for one file is the one measured and sent; the others follow the import', async () => {
    const { mkdirSync } = await import('node:fs');
    const folder = join(dir, 'per-file-channel');
    mkdirSync(folder);
    const speech = makeSpeechLikeSignal({ seconds: 40, speechSeconds: 36, sampleRateHz: 16_000, seed: 21 });
    const silent = new Float32Array(speech.length);
    for (const name of ['P020_s1.wav', 'P021_s1.wav'])
      writeFileSync(
        join(folder, name),
        encodeWav([silent, speech], { sampleRateHz: 16_000, format: 'pcm16' }),
      );
    const plan = await planImport(
      importDbWithStudy(),
      request([folder], {
        convert: true,
        channelByFile: [{ path: join(folder, 'P020_s1.wav'), channel: 1 }],
      }),
    );
    const [chosen, other] = plan.files;
    expect(chosen!.verdict.speech).toMatchObject({ channelSent: 1, seconds: 0 });
    expect(chosen!.action).toBe('refused');
    expect(other!.verdict.speech).toMatchObject({ channelSent: 2 });
    expect(other!.action).toBe('convert_and_upload');
  }, 120_000);

  it('8 kHz phone audio is resampled when conversion is on, and the warning says so', async () => {
    const folder = join(dir, 'phone');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder);
    const speech = makeSpeechLikeSignal({ seconds: 50, speechSeconds: 44, sampleRateHz: 8_000, seed: 4 });
    writeFileSync(join(folder, 'P004_s1.wav'), encodeWav([speech], { sampleRateHz: 8_000, format: 'pcm16' }));
    const on = await planImport(importDbWithStudy(), request([folder], { convert: true }));
    expect(on.files[0]).toMatchObject({ action: 'convert_and_upload' });
    expect(on.files[0]!.verdict.findings[0]!.action).toContain('it will be resampled to 16 kHz');
    const off = await planImport(importDbWithStudy(), request([folder]));
    expect(off.files[0]).toMatchObject({ action: 'upload' });
    expect(off.files[0]!.verdict.findings[0]!.action).toContain('Switch on conversion');
  }, 120_000);

  it('damaged FLAC, AIFF and WebM files are listed by name, with why they cannot be decoded and what to do, whatever their extension says', async () => {
    const { mkdirSync } = await import('node:fs');
    const folder = join(dir, 'other-formats');
    mkdirSync(folder);
    const head = (magic: string, at8 = '') =>
      Buffer.concat([
        Buffer.from(magic, 'latin1'),
        Buffer.alloc(4),
        Buffer.from(at8, 'latin1'),
        Buffer.alloc(4000),
      ]);
    writeFileSync(join(folder, 'P010_s1.flac'), head('fLaC'));
    writeFileSync(join(folder, 'P011_s1.aiff'), head('FORM', 'AIFF'));
    writeFileSync(
      join(folder, 'P012_s1.webm'),
      Buffer.concat([
        Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x84]),
        Buffer.from('webm'),
        Buffer.alloc(4000),
      ]),
    );
    writeFileSync(join(folder, 'P013_s1.wav'), head('fLaC')); // a FLAC file renamed .wav
    const plan = await planImport(
      importDbWithStudy(),
      request([folder], { filenamePattern: '{participant}_{session}.*' }),
    );
    expect(plan.notices.join(' ')).not.toMatch(/left out/);
    const messages = Object.fromEntries(plan.files.map((f) => [f.fileName, f.verdict.findings[0]?.message]));
    expect(messages).toEqual({
      'P010_s1.flac': expect.stringMatching(
        /^The file's format is FLAC; the service does not take FLAC\. \S/,
      ),
      'P011_s1.aiff': expect.stringMatching(
        /^The file's format is AIFF; the service does not take AIFF\. \S/,
      ),
      'P012_s1.webm': expect.stringMatching(
        /^The file's format is WebM; the service does not take WebM\. \S/,
      ),
      'P013_s1.wav': expect.stringMatching(/^The file's format is FLAC; the service does not take FLAC\. \S/),
    });
    for (const f of plan.files) {
      expect(f.action).toBe('refused');
      expect(f.verdict.status).toBe('refused');
      expect(f.verdict.findings[0]!.action).toMatch(/export it as WAV/);
    }
  }, 120_000);
});
