/**
 * A recording's facts on its page: the audio measured locally beside what the service reported (a dash
 * before it reported, "not reported" for what it never reports), and an event's stored detail as
 * readable pairs, or as it is when it is not a JSON object.
 */
import { describe, expect, it } from 'vitest';
import type { RecordingDetail } from '../../../shared/contract/recordings.contract';
import {
  conversionSentence,
  eventDetailPairs,
  factRows,
} from '../../../renderer/src/features/recording-detail/recording-facts';

const local: RecordingDetail['local'] = {
  format: 'wav',
  channels: 2,
  sampleRateHz: 44_100,
  bitRateBps: 1_411_200,
  sizeBytes: 2048,
  durationSeconds: 42,
  speechEstimateSeconds: 35,
} as RecordingDetail['local'];

describe('the facts table', () => {
  it('gives the local measurements, and a dash for the service before it reported', () => {
    expect(factRows({ local, service: null })).toEqual([
      ['Format', 'wav', '—'],
      ['Channels', 'stereo', '—'],
      ['Sample rate', '44,100 Hz', '—'],
      ['Bit rate', '1,411 kbit/s', '—'],
      ['Size', '2.0 KB', '—'],
      ['Duration', '42.0 s', '—'],
    ]);
  });

  it('gives what the service reported, and says it never reports channels', () => {
    const service = {
      format: 'wav',
      sampleRateHz: 16_000,
      bitRateBps: null,
      sizeBytes: 1024,
      durationSeconds: 41.5,
    } as NonNullable<RecordingDetail['service']>;
    const rows = factRows({ local: { ...local, channels: 1, bitRateBps: null }, service });
    expect(rows.map((r) => r[2])).toEqual(['wav', 'not reported', '16,000 Hz', '—', '1.0 KB', '41.5 s']);
    expect(rows[1]![1]).toBe('mono');
  });
});

describe("an event's detail", () => {
  it('reads as pairs: underscores as spaces, lists joined, nested objects as JSON', () => {
    expect(eventDetailPairs('{"http_status":503,"codes":["a","b"],"retry":{"in":5},"ok":true}')).toEqual([
      ['http status', '503'],
      ['codes', 'a, b'],
      ['retry', '{"in":5}'],
      ['ok', 'true'],
    ]);
    expect(eventDetailPairs('{}')).toEqual([]);
  });

  it('is shown as it is when it is not a JSON object', () => {
    expect(eventDetailPairs('connection reset')).toBeNull();
    expect(eventDetailPairs('[1,2]')).toBeNull();
    expect(eventDetailPairs('null')).toBeNull();
  });
});

describe('the conversion, on the page of a recording sent as a converted copy', () => {
  it('names what decoded the original, the channel sent and the rate it was resampled from', () => {
    expect(
      conversionSentence({
        sha256: 'ab'.repeat(32),
        channel: 2,
        resampledFromHz: 44_100,
        decodedBy: { decoder: 'Voicescope FLAC decoder (RFC 9639)', container: 'flac', codec: 'flac' },
      }),
    ).toBe(
      'Decoded from FLAC (flac) by Voicescope FLAC decoder (RFC 9639); channel 2 sent as mono; resampled from 44,100 Hz to 16,000 Hz; written as 16-bit PCM WAV.',
    );
  });

  it('says when the channels were averaged and the rate kept, and a copy made before decoders were recorded', () => {
    expect(conversionSentence({ sha256: 'x', channel: 'mix', resampledFromHz: null })).toBe(
      'Read as WAV; the mean of all channels sent as mono; already at 16,000 Hz; written as 16-bit PCM WAV.',
    );
  });
});
