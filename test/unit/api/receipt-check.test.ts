import { describe, expect, it } from 'vitest';
import type { RecordingReceipt } from '../../../shared/api/domain';
import { checkReceipt, type SentUpload } from '../../../shared/api/receipt-check';

const sent: SentUpload = {
  accountId: '7d9e6f5a-1b2c-4d3e-9f8a-7b6c5d4e3f2a',
  recordedAt: '2026-03-02T10:15:00+01:00',
  isolateOldestSpeaker: false,
  probe: {
    format: 'wav',
    sizeBytes: 1_920_044,
    sampleRateHz: 16_000,
    durationSeconds: 60,
    speechSeconds: 48,
  },
};
const receipt = (
  over: Partial<RecordingReceipt['audio']> & Partial<RecordingReceipt> = {},
): RecordingReceipt => ({
  apiVersion: 'v1.3',
  recordingId: '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f',
  accountId: over.accountId ?? sent.accountId.toUpperCase(),
  recordedAt: over.recordedAt ?? '2026-03-02T09:15:00Z',
  uploadedAt: '2026-03-02T09:20:00Z',
  source: 'service',
  flags: [],
  audio: {
    format: 'WAV',
    sizeBytes: 1_920_044,
    sampleRateHz: 16_000,
    bitRateBps: 256_000,
    durationSeconds: 60.2,
    speechDurationSeconds: 44,
    ...over,
  },
});
const codes = (r: RecordingReceipt, s: SentUpload = sent) => checkReceipt(r, s).map((f) => f.code);

describe('upload receipts compared with what was sent', () => {
  it('a receipt that echoes the request and agrees with the probe raises nothing (same instant, other zone; case of ids and formats)', () =>
    expect(codes(receipt())).toEqual([]));

  it('another account or another instant is flagged', () => {
    expect(codes(receipt({ accountId: '00000000-0000-4000-8000-000000000000' }))).toEqual([
      'receipt_account_differs',
    ]);
    expect(codes(receipt({ recordedAt: '2026-03-02T10:15:00Z' }))).toEqual(['receipt_recorded_at_differs']);
    expect(codes(receipt({ recordedAt: 'yesterday' }))).toEqual(['receipt_recorded_at_differs']);
  });

  it('audio facts that contradict the probe are flagged, within the documented tolerances', () => {
    expect(codes(receipt({ format: 'mp3' }))).toEqual(['receipt_format_differs']);
    expect(codes(receipt({ format: 'audio/x-wav' }))).toEqual([]);
    expect(codes(receipt({ durationSeconds: 60.5 }))).toEqual([]);
    expect(codes(receipt({ durationSeconds: 61 }))).toEqual(['receipt_duration_differs']);
    expect(codes(receipt({ sampleRateHz: 8_000 }))).toEqual(['receipt_sample_rate_differs']);
    expect(codes(receipt({ sizeBytes: 1_000 }))).toEqual(['receipt_size_differs']);
    expect(codes(receipt({ speechDurationSeconds: 30 }))).toEqual(['receipt_speech_differs']);
    expect(codes(receipt({ speechDurationSeconds: 40 }))).toEqual([]);
  });

  it('with speaker isolation the service describes less audio than was sent: only more is flagged', () => {
    const iso = { ...sent, isolateOldestSpeaker: true };
    expect(
      codes(receipt({ durationSeconds: 35, sizeBytes: 900_000, speechDurationSeconds: 31 }), iso),
    ).toEqual([]);
    expect(codes(receipt({ durationSeconds: 70, sizeBytes: 3_000_000 }), iso)).toEqual([
      'receipt_duration_differs',
      'receipt_size_differs',
    ]);
  });

  it('what the receipt leaves out (v1.2) is not compared', () =>
    expect(
      codes(
        receipt({
          format: null,
          sizeBytes: null,
          sampleRateHz: null,
          durationSeconds: null,
          speechDurationSeconds: null,
        }),
      ),
    ).toEqual([]));

  it('says what was expected in rounded seconds, never the raw binary fraction', () => {
    const odd: SentUpload = { ...sent, probe: { ...sent.probe, speechSeconds: 68.29599999999996 } };
    const [flag] = checkReceipt(receipt({ speechDurationSeconds: 50.5, durationSeconds: 60.2 }), odd);
    expect(flag).toMatchObject({
      code: 'receipt_speech_differs',
      received: '50.5',
      expected: '68.3 s ± 13.7 s (local estimate)',
    });
    const long: SentUpload = { ...sent, probe: { ...sent.probe, durationSeconds: 68.29599999999996 } };
    expect(checkReceipt(receipt({ durationSeconds: 60.2 }), long)[0]!.expected).toBe('68.3 s ± 0.7 s');
  });
});
