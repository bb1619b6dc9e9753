/**
 * Local acoustic measures in a study: recordings imported as a researcher would, measured on worker
 * threads with progress, stored with their provenance and quality control, measured once only, and
 * exported as long rows (`analysis` = `local`) and wide `lm_` columns.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURE_KEYS } from '../../../main/acoustics/measures';
import { runExport } from '../../../main/export/run-export';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import type { ImportRequest } from '../../../shared/study';
import { encodeWav, makeSpeechLikeSignal } from '../../fixtures/audio';
import { num, readCsv } from '../export/helpers';

const dir = mkdtempSync(join(tmpdir(), 'vs-local-'));
let svc: StudyService;

// 4 s recordings: three times the shortest the quality control accepts, with pauses and voiced stretches
// for every measure; each is measured twice, so their length is most of this file's time.
const speech = (seed: number): Float32Array =>
  makeSpeechLikeSignal({ seconds: 4, speechSeconds: 3, sampleRateHz: 16_000, seed });

beforeAll(async () => {
  const audio = join(dir, 'audio');
  mkdirSync(audio);
  writeFileSync(
    join(audio, 'P001_s1.wav'),
    encodeWav([speech(1)], { sampleRateHz: 16_000, format: 'pcm16' }),
  );
  writeFileSync(
    join(audio, 'P002_s1.wav'),
    encodeWav([speech(2)], { sampleRateHz: 16_000, format: 'pcm16' }),
  );
  // Driven far into clipping: the quality control must call it poor.
  const loud = speech(3).map((v) => Math.max(-1, Math.min(1, v * 40)));
  writeFileSync(join(audio, 'P003_s1.wav'), encodeWav([loud], { sampleRateHz: 16_000, format: 'pcm16' }));
  svc = await openTestStudyService({ workspaceDir: join(dir, 'ws') });
  await svc.store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://127.0.0.1:9', 'v1.3', 'x')`,
  );
  await svc.store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'voice', 1, 'x')`);
  const req: ImportRequest = {
    studyId: 1,
    paths: [audio],
    filenamePattern: '{participant}_{session}.wav',
    timeZone: 'UTC',
    analyses: ['wellbeing'],
    isolateOldestSpeaker: false,
    convert: false,
  };
  const plan = await svc.planImport(req);
  if (!plan.ok) throw new Error(plan.error.message);
  await svc.commitImport(plan.value);
}, 120_000);

afterAll(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('local measures of a study', () => {
  it('measures every recording without measures, off the calling thread, reporting progress', async () => {
    const progress: [number, number][] = [];
    const report = await svc.measureStudy(1, { onProgress: (d, t) => progress.push([d, t]) });
    expect(report).toMatchObject({
      measured: 3,
      failed: [],
      settings: { pitchFloor: 75, pitchCeiling: 500 },
    });
    expect(progress[0]).toEqual([0, 3]);
    expect(progress.at(-1)).toEqual([3, 3]);
  }, 180_000);

  it('stores every measure key with the engine version and the pitch range as provenance', async () => {
    const ids = ((await svc.store.all(`SELECT id FROM recordings ORDER BY id`)) as { id: number }[]).map(
      (r) => r.id,
    );
    const m = (await svc.localMeasurement(ids[0]!))!;
    expect(Object.keys(m.measures).sort()).toEqual([...MEASURE_KEYS].sort());
    expect(m.measures['f0_mean_hz']).toBeGreaterThan(75);
    expect(m.engineVersion).toMatch(/^voicescope-acoustics \d/);
    expect(m.settings).toEqual({ pitchFloor: 75, pitchCeiling: 500 });
    expect(m.problem).toBeNull();
    const clipped = (await svc.localMeasurement(ids[2]!))!;
    expect(clipped.quality?.verdict).toBe('poor');
    expect(clipped.quality?.reasons.join(' ')).toMatch(/clipped/);
  });

  it('measures a recording once: a second run finds nothing to do', async () => {
    const report = await svc.measureStudy(1);
    expect(report.measured).toBe(0);
  });

  it('checks the quality of files before they are imported (the preview), and names a file it cannot read', async () => {
    const audio = join(dir, 'audio');
    writeFileSync(join(dir, 'notes.wav'), 'not audio');
    const r = await svc.assessFiles([
      join(audio, 'P001_s1.wav'),
      join(audio, 'P003_s1.wav'),
      join(dir, 'notes.wav'),
    ]);
    expect(r.map((x) => x.quality?.verdict ?? null)).toEqual(['good', 'poor', null]);
    expect(r[2]!.problem).toBeTruthy();
  }, 60_000);

  it('in the background (after an import), one run per study at a time: a second request joins the first', async () => {
    const errors: unknown[] = [];
    const a = svc.measureInBackground(1, undefined, (e) => errors.push(e));
    const b = svc.measureInBackground(1, undefined, (e) => errors.push(e));
    expect(b).toBe(a);
    await a;
    expect(errors).toEqual([]);
  });

  it('measures again with another pitch range when asked, and records that range', async () => {
    await svc.setLocalMeasureSettings(1, { pitchFloor: 100, pitchCeiling: 400 });
    const report = await svc.measureStudy(1, { again: true });
    expect(report.measured).toBe(3);
    const id = ((await svc.store.get(`SELECT id FROM recordings ORDER BY id LIMIT 1`)) as { id: number }).id;
    expect((await svc.localMeasurement(id))!.settings).toEqual({ pitchFloor: 100, pitchCeiling: 400 });
  }, 180_000);

  it('exports long rows with analysis = local and measure = the key, wide lm_ and qc_ columns, and the codebook', async () => {
    // The recordings sent (an analysis row), as the engine would after the upload; never-sent ones: export/local-only.test.ts.
    await svc.store.run(
      `INSERT INTO analyses (recording_id, type, state, requested_at) SELECT id, 'wellbeing', 'processing', 'x' FROM recordings`,
    );
    const out = join(dir, 'out');
    mkdirSync(out, { recursive: true });
    const r = await runExport(
      svc,
      { studyId: 1, timeZone: 'UTC', forms: ['long', 'wide'] },
      { outDir: out, appVersion: 'test', now: () => Date.UTC(2026, 10, 25) },
    );
    if (!r.ok) throw new Error(r.error.message);
    const dirOut = r.value.directory;
    const long = readCsv(join(dirOut, 'measures_long.csv')).records.filter((x) => x['analysis'] === 'local');
    expect(long).toHaveLength(3 * MEASURE_KEYS.length);
    expect(new Set(long.map((x) => x['measure']))).toEqual(new Set(MEASURE_KEYS));
    const f0 = long.filter((x) => x['measure'] === 'f0_mean_hz');
    expect(f0.every((x) => x['analysis_state'] === 'completed' && x['unit'] === 'Hz')).toBe(true);
    expect(f0.every((x) => num(x['value'])! > 75)).toBe(true);

    const wide = readCsv(join(dirOut, 'measures_wide.csv'));
    for (const k of MEASURE_KEYS) expect(wide.header).toContain(`lm_${k}`);
    expect(wide.header).toEqual(
      expect.arrayContaining(['qc_verdict', 'qc_reasons', 'qc_snr_db', 'lm_pitch_floor_hz']),
    );
    expect(wide.records.map((x) => x['qc_verdict'])).toEqual(['good', 'good', 'poor']);
    const first = wide.records[0]!;
    expect(num(first['lm_f0_mean_hz'])).toBeCloseTo(
      num(f0.find((x) => x['recording'] === first['recording'])!['value'])!,
      6,
    );
    expect(first['lm_pitch_floor_hz']).toBe('100');

    const recordings = readCsv(join(dirOut, 'recordings.csv'));
    expect(recordings.header).toContain('qc_verdict');
    const codebook = (await import('node:fs')).readFileSync(join(dirOut, 'codebook.md'), 'utf8');
    expect(codebook).toContain('## Local acoustic measures');
    expect(codebook).toContain('Boersma, P. (1993)');
    expect(codebook).toContain('`lm_jitter_local_pct`');
  }, 120_000);
});
