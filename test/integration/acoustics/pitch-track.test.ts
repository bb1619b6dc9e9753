/**
 * The F0 track kept with a recording's local measures (migration 0160), for the recording page's
 * spectrogram: stored by the study's measuring run, the same track the F0 measures come from (its
 * voiced frames give the stored median, minimum and maximum), replaced when measured again, and read
 * back in 32-bit floats little-endian.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackBytes, trackFromBytes } from '../../../main/acoustics/pitch-track';
import type { StudyService } from '../../../main/services/study-service';
import { openTestStudyService } from '../../support/test-engine';
import { encodeWav, makeSpeechLikeSignal } from '../../fixtures/audio';

const dir = mkdtempSync(join(tmpdir(), 'vs-track-'));
let svc: StudyService;
let id: number;

beforeAll(async () => {
  const audio = join(dir, 'audio');
  mkdirSync(audio);
  const signal = makeSpeechLikeSignal({ seconds: 6, speechSeconds: 4, sampleRateHz: 16_000, seed: 7 });
  writeFileSync(join(audio, 'P001_s1.wav'), encodeWav([signal], { sampleRateHz: 16_000, format: 'pcm16' }));
  svc = await openTestStudyService({ workspaceDir: join(dir, 'ws') });
  await svc.store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://127.0.0.1:9', 'v1.3', 'x')`,
  );
  await svc.store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'voice', 1, 'x')`);
  const plan = await svc.planImport({
    studyId: 1,
    paths: [audio],
    filenamePattern: '{participant}_{session}.wav',
    timeZone: 'UTC',
    analyses: ['wellbeing'],
    isolateOldestSpeaker: false,
    convert: false,
  });
  if (!plan.ok) throw new Error(plan.error.message);
  await svc.commitImport(plan.value);
  id = ((await svc.store.get(`SELECT id FROM recordings`)) as { id: number }).id;
}, 120_000);

afterAll(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the pitch track of the local measures', () => {
  it('is none before the recording is measured', async () => {
    expect(await svc.localPitchTrack(id)).toBeNull();
  });

  it('is stored by the measuring run: frames a quarter period of the floor apart over the recording, its voiced frames giving the stored F0 measures', async () => {
    await svc.measureStudy(1, { threads: 1 });
    const t = (await svc.localPitchTrack(id))!;
    const m = (await svc.localMeasurement(id))!.measures;
    // To Pitch (cc)'s default time step: a quarter of the longest period.
    expect(t.step).toBeCloseTo(0.25 / 75, 9);
    expect(t.firstTime).toBeGreaterThan(0);
    expect(t.firstTime + t.f0.length * t.step).toBeGreaterThan(5.9);
    expect(t.firstTime + t.f0.length * t.step).toBeLessThanOrEqual(6 + t.step);
    const voiced = [...t.f0].filter((f) => f > 0).sort((a, b) => a - b);
    expect(voiced.length / t.f0.length).toBeCloseTo(m['voiced_fraction']!, 6);
    expect(voiced[0]).toBeCloseTo(m['f0_min_hz']!, 3);
    expect(voiced.at(-1)).toBeCloseTo(m['f0_max_hz']!, 3);
    expect(voiced.every((f) => f >= 75 && f <= 500)).toBe(true);
  }, 120_000);

  it('is replaced when the recording is measured again with another range', async () => {
    await svc.setLocalMeasureSettings(1, { pitchFloor: 100, pitchCeiling: 400 });
    await svc.measureStudy(1, { again: true, threads: 1 });
    const t = (await svc.localPitchTrack(id))!;
    expect(t.step).toBeCloseTo(0.25 / 100, 9);
    expect([...t.f0].filter((f) => f > 0).every((f) => f >= 100 && f <= 400)).toBe(true);
    expect(await svc.store.get(`SELECT count(*) AS n FROM local_pitch_tracks`)).toEqual({ n: 1 });
  }, 120_000);

  it('is gone with its measurement', async () => {
    await svc.store.run(`DELETE FROM local_measurements WHERE recording_id = ?`, [id]);
    expect(await svc.localPitchTrack(id)).toBeNull();
  });
});

describe('the stored bytes', () => {
  it('are 32-bit floats, little-endian, read back exactly', () => {
    const f0 = Float32Array.from([0, 118.25, 0, 220.5, 87.123]);
    const b = trackBytes(f0);
    expect(b.length).toBe(20);
    expect(b.readFloatLE(4)).toBe(118.25);
    expect(trackFromBytes(b)).toEqual(f0);
  });
});
