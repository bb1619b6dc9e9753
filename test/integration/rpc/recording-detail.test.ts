/**
 * recordings.detail: everything the recording screen shows, from the database as the engine left it:
 * local and service facts, the converted copy, the verdict, each analysis type's state and polls, every
 * stored value (absent when the service did not provide it, never 0), the duplicate it repeats, the
 * service's refusal, and the event log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiError } from '../../../shared/api/api-error';
import { openTestHost, type TestHost } from './test-host';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from './seed';

let t: TestHost;
beforeEach(async () => {
  t = await openTestHost({ now: NOW });
});
afterEach(async () => {
  await t.close();
});

const detail = (recordingId: number) => t.must('recordings.detail', { recordingId });

describe('recordings.detail', () => {
  it('gives the file, local and service facts, the converted copy, each analysis state and every stored value', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-7');
    const r = await seedRecording(t.store, s, p, {
      recordedAt: daysAgo(3),
      converted: true,
      fileName: 'p7-week1.wav',
      analyses: { wellbeing: 'completed', parkinsons: 'completed', alzheimers: 'timed_out' },
    });
    await storeValues(t.store, r, 'wellbeing', { wb_stress: 'high', wb_anxiety: 'mild' });
    // The service left out the HNR: it is absent, not 0.
    await storeValues(t.store, r, 'parkinsons', { pd_volume: 61, pd_voice_quality: 0 });
    const d = await detail(r);
    expect(d.studyId).toBe(s);
    expect(d.row).toMatchObject({
      id: r,
      participantId: p,
      participantCode: 'P-7',
      fileName: 'p7-week1.wav',
      converted: true,
      uploadState: 'uploaded',
      simulated: true,
      apiVersion: 'v1.3',
      recordedAtSource: 'manifest',
    });
    expect(d.sourcePath).toBe('/study/p7-week1.wav');
    expect(d.uploadPath).toMatch(/converted/);
    expect(d.local).toMatchObject({
      format: 'wav',
      channels: 1,
      sampleRateHz: 16000,
      sizeBytes: 48000,
      durationSeconds: 60,
      speechEstimateSeconds: 45,
    });
    const stored = await t.store.get<{ recording_id: string }>(
      'SELECT recording_id FROM recordings WHERE id = ?',
      [r],
    );
    expect(d.service).toMatchObject({ recordingId: stored!.recording_id, speechSeconds: 45 });
    expect(d.values).toEqual({ wb_stress: 'high', wb_anxiety: 'mild', pd_volume: 61, pd_voice_quality: 0 });
    expect(d.values).not.toHaveProperty('pd_hnr');
    expect(d.analyses.map((a) => [a.type, a.state, a.polls, a.finishedAt !== null])).toEqual([
      ['wellbeing', 'completed', 1, true],
      ['parkinsons', 'completed', 1, true],
      ['alzheimers', 'timed_out', 0, false],
    ]);
    expect(d.events.map((e) => e.kind)).toEqual(['analysis_final', 'analysis_final']);
    expect(d.duplicateOf).toBeNull();
    expect(d.uploadError).toBeNull();
  });

  it('names the earlier recording a held duplicate repeats', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    const first = await seedRecording(t.store, s, p, { recordedAt: daysAgo(9), fileName: 'first.wav' });
    const copy = await seedRecording(t.store, s, p, {
      recordedAt: daysAgo(9),
      uploadState: 'duplicate',
      fileName: 'copy.wav',
    });
    await t.store.run(`UPDATE recordings SET duplicate_of = ? WHERE id = ?`, [first, copy]);
    const d = await detail(copy);
    expect(d.duplicateOf).toEqual({ recordingId: first, fileName: 'first.wav' });
    expect(d.service).toBeNull();
    expect(d.row.problem).not.toBeNull();
  });

  it('gives the service’s refusal when there is one, whether stored as is or inside an uncertain upload’s record', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    const refusal = apiError('SpeakerSpeechTooShort', 'upload', {
      status: 400,
      serviceType: 'SpeakerSpeechTooShort',
      serviceMessage: 'Not enough speech',
    });
    const rejected = await seedRecording(t.store, s, p, { recordedAt: daysAgo(2), uploadState: 'rejected' });
    await t.store.run(`UPDATE recordings SET upload_error = ?, upload_attempts = 1 WHERE id = ?`, [
      JSON.stringify(refusal),
      rejected,
    ]);
    const uncertain = await seedRecording(t.store, s, p, {
      recordedAt: daysAgo(2),
      uploadState: 'upload_uncertain',
    });
    await t.store.run(`UPDATE recordings SET upload_error = ?, upload_attempts = 2 WHERE id = ?`, [
      JSON.stringify({
        reason: 'The connection dropped after sending.',
        error: apiError('NetworkError', 'upload'),
      }),
      uncertain,
    ]);
    const gone = await seedRecording(t.store, s, p, { recordedAt: daysAgo(2), uploadState: 'rejected' });
    await t.store.run(`UPDATE recordings SET upload_error = ? WHERE id = ?`, [
      JSON.stringify({ reason: 'The file is no longer there.' }),
      gone,
    ]);
    expect(await detail(rejected)).toMatchObject({
      uploadAttempts: 1,
      uploadError: { kind: 'SpeakerSpeechTooShort', serviceMessage: 'Not enough speech' },
    });
    expect(await detail(uncertain)).toMatchObject({
      uploadAttempts: 2,
      uploadError: { kind: 'NetworkError' },
    });
    expect(await detail(gone)).toMatchObject({
      uploadError: null,
      row: { problem: { summary: 'The file is no longer there.' } },
    });
  });

  it('says NOT_FOUND for a recording that does not exist', async () => {
    expect(await t.call('recordings.detail', { recordingId: 12345 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});
