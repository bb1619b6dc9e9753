/**
 * The audio facts shared by the upload receipt and the analysis metadata, read member by member.
 * A member of the wrong kind (text where a number is expected) is null in the domain value; what was
 * received is in its flag.
 */
import { dqFlag } from '../data-quality';
import type { AudioFacts } from '../domain';
import { join, readNumber, readText, type Flags, type Obj } from './fields';

/** Seconds of speech may exceed seconds of audio by this much before it is flagged (rounding). */
export const SPEECH_OVER_AUDIO_TOLERANCE_S = 0.01;

export const AUDIO_MEMBERS = [
  'audio_file_format',
  'audio_size_bytes',
  'audio_sample_rate_hz',
  'audio_bit_rate_bps',
  'audio_duration_seconds',
  'speech_duration_seconds',
] as const;

export const readAudioFacts = (
  flags: Flags,
  base: string,
  o: Obj,
  required: (member: (typeof AUDIO_MEMBERS)[number]) => boolean,
): AudioFacts => {
  const int = { integer: true, nonNegative: true };
  const dbl = { integer: false, nonNegative: true };
  const at = (k: string) => join(base, k);
  const facts: AudioFacts = {
    format: readText(flags, at('audio_file_format'), o['audio_file_format'], required('audio_file_format')),
    sizeBytes: readNumber(
      flags,
      at('audio_size_bytes'),
      o['audio_size_bytes'],
      required('audio_size_bytes'),
      int,
    ),
    sampleRateHz: readNumber(
      flags,
      at('audio_sample_rate_hz'),
      o['audio_sample_rate_hz'],
      required('audio_sample_rate_hz'),
      int,
    ),
    bitRateBps: readNumber(
      flags,
      at('audio_bit_rate_bps'),
      o['audio_bit_rate_bps'],
      required('audio_bit_rate_bps'),
      int,
    ),
    durationSeconds: readNumber(
      flags,
      at('audio_duration_seconds'),
      o['audio_duration_seconds'],
      required('audio_duration_seconds'),
      dbl,
    ),
    speechDurationSeconds: readNumber(
      flags,
      at('speech_duration_seconds'),
      o['speech_duration_seconds'],
      required('speech_duration_seconds'),
      dbl,
    ),
  };
  if (
    facts.speechDurationSeconds !== null &&
    facts.durationSeconds !== null &&
    facts.speechDurationSeconds > facts.durationSeconds + SPEECH_OVER_AUDIO_TOLERANCE_S
  )
    flags.push(
      dqFlag(
        'speech_longer_than_audio',
        at('speech_duration_seconds'),
        facts.speechDurationSeconds,
        `at most audio_duration_seconds (${facts.durationSeconds})`,
      ),
    );
  return facts;
};
