/**
 * Local validation before any credit is spent: the service's limits (spec: Limits) applied to what
 * the probe read from the file. Each finding says, in a researcher's words, what is wrong and what to
 * do, and whether switching on conversion (WAV only: stereo to mono, resampling to 16 kHz) would fix it.
 */
import { LIMITS } from '../../shared/api/vocabulary';
import type { ProbedAudio, ProbeProblem } from '../audio/probe';

export type FindingCode =
  | 'empty'
  | 'not_audio'
  | 'unsupported_encoding'
  | 'unreadable'
  | 'too_large'
  | 'not_mono'
  | 'sample_rate_too_low'
  | 'sample_rate_below_16k'
  | 'bit_rate_too_low'
  | 'speech_too_short'
  | 'speech_near_minimum'
  | 'speech_not_measured'
  | 'speech_estimate_uncertain'
  | 'too_long_for_isolation'
  | 'isolation_may_leave_too_little';

export interface Finding {
  readonly code: FindingCode;
  /** refuse: the file is not uploaded as it is; warn: it is, but the researcher should know. */
  readonly severity: 'refuse' | 'warn';
  readonly message: string;
  readonly action: string;
  /** True when the optional WAV conversion removes this finding. */
  readonly fixedByConversion: boolean;
}

/** needs_conversion: refused as it is, but conversion (switched off) would fix every refusal; will_convert: the same with conversion on. */
export type VerdictStatus =
  'accepted' | 'accepted_with_warnings' | 'needs_conversion' | 'will_convert' | 'refused';

export interface LocalVerdict {
  readonly status: VerdictStatus;
  readonly findings: readonly Finding[];
}

export interface VerdictOptions {
  readonly isolateOldestSpeaker: boolean;
  /** The researcher switched on conversion (stereo to mono, resampling to 16 kHz) for WAV files. */
  readonly conversion: boolean;
}

/** The sample rate of the converted copy sent instead of a WAV file the researcher chose to convert. */
export const CONVERTED_RATE_HZ = 16_000;
/** Speech estimates within this share above the minimum are reported as near it. */
const NEAR_MARGIN = 0.1;
/** Above this share of speech the energy detector's noise floor sits on quiet speech and can undercount (main/audio/speech-estimate.ts). */
const CONTINUOUS_SPEECH_SHARE = 0.9;

const s1 = (x: number) => `${x.toFixed(1)} s`;

export const verdictFromProblem = (p: ProbeProblem): LocalVerdict => {
  const action: Record<ProbeProblem['code'], string> = {
    empty: 'Check that the file was copied completely from the recorder.',
    not_audio: 'Export the recording as WAV, MP3, MP4 (M4A) or OGG.',
    unsupported_encoding: 'Re-export it as uncompressed PCM WAV (16-bit, mono) or as MP3.',
    unreadable: 'The file looks damaged; copy it again from the recorder or re-export it.',
  };
  return {
    status: 'refused',
    findings: [
      {
        code: p.code,
        severity: 'refuse',
        message: p.message,
        action: action[p.code],
        fixedByConversion: false,
      },
    ],
  };
};

export const judgeAudio = (a: ProbedAudio, opts: VerdictOptions): LocalVerdict => {
  const findings: Finding[] = [];
  const isWav = a.format === 'wav';
  const add = (f: Finding) => findings.push(f);
  const convertedBytes = Math.ceil(a.durationSeconds * CONVERTED_RATE_HZ) * 2 + 44;

  if (a.sizeBytes > LIMITS.maxAudioBytes) {
    const fixable = isWav && convertedBytes <= LIMITS.maxAudioBytes;
    add({
      code: 'too_large',
      severity: 'refuse',
      fixedByConversion: fixable,
      message: `The file is ${(a.sizeBytes / 1e6).toFixed(1)} MB; the service accepts at most 50 MB.`,
      action: fixable
        ? 'Switch on conversion: as mono 16 kHz WAV it would be about ' +
          (convertedBytes / 1e6).toFixed(1) +
          ' MB.'
        : 'Shorten the recording or export it compressed (MP3).',
    });
  }
  if (a.channels !== LIMITS.channels) {
    add({
      code: 'not_mono',
      severity: 'refuse',
      fixedByConversion: isWav,
      message: `The recording has ${a.channels} channels; the service accepts only mono.`,
      action: isWav
        ? 'Switch on conversion to mix it down to mono (the original file is kept).'
        : 'Export it again as mono.',
    });
  }
  if (a.sampleRateHz < LIMITS.minSampleRateHzLenient) {
    add({
      code: 'sample_rate_too_low',
      severity: 'refuse',
      fixedByConversion: false,
      message: `The sample rate is ${a.sampleRateHz} Hz; the service needs at least 8,000 Hz.`,
      action: 'Record again at 16,000 Hz or more; resampling cannot add what the recording lacks.',
    });
  } else if (a.sampleRateHz < LIMITS.minSampleRateHzStrict) {
    add({
      code: 'sample_rate_below_16k',
      severity: 'warn',
      fixedByConversion: isWav,
      message: `The sample rate is ${a.sampleRateHz} Hz. The specification gives both 8,000 and 16,000 Hz as the minimum, so the service may refuse it.`,
      action: isWav
        ? 'Switching on conversion resamples it to 16 kHz (this adds no detail, but passes a 16 kHz check).'
        : 'Record at 16,000 Hz or more for future sessions.',
    });
  }
  if (a.bitRateBps < LIMITS.minBitRateBps) {
    add({
      code: 'bit_rate_too_low',
      severity: 'refuse',
      fixedByConversion: false,
      message: `The bit rate is ${Math.round(a.bitRateBps / 1000)} kbit/s; the service needs at least 32 kbit/s.`,
      action: 'Export it again at a higher bit rate (64 kbit/s or more), or as WAV.',
    });
  }
  if (opts.isolateOldestSpeaker && a.durationSeconds > LIMITS.maxIsolationSeconds) {
    add({
      code: 'too_long_for_isolation',
      severity: 'refuse',
      fixedByConversion: false,
      message: `The recording lasts ${(a.durationSeconds / 60).toFixed(1)} minutes; isolating the oldest speaker works only up to 10 minutes.`,
      action: 'Trim it to 10 minutes, or upload this batch without "isolate oldest speaker".',
    });
  }

  const min = LIMITS.minSpeechSeconds;
  if (a.speechSeconds === null) {
    if (a.durationSeconds < min) {
      add({
        code: 'speech_too_short',
        severity: 'refuse',
        fixedByConversion: false,
        message: `The recording lasts ${s1(a.durationSeconds)}, so it cannot hold the 30 s of speech the service requires.`,
        action: 'Record at least 30 seconds of free speech (an open question helps).',
      });
    } else {
      add({
        code: 'speech_not_measured',
        severity: 'warn',
        fixedByConversion: false,
        message: `Speech time cannot be measured locally in ${a.format.toUpperCase()} files; the service will check for 30 s of speech (the recording lasts ${s1(a.durationSeconds)}).`,
        action: 'Nothing to do; a refusal by the service costs no credit.',
      });
    }
  } else {
    const share = a.durationSeconds > 0 ? a.speechSeconds / a.durationSeconds : 0;
    if (a.speechSeconds < min) {
      const continuous = share > CONTINUOUS_SPEECH_SHARE && a.durationSeconds >= min;
      add({
        code: continuous ? 'speech_estimate_uncertain' : 'speech_too_short',
        severity: continuous ? 'warn' : 'refuse',
        fixedByConversion: false,
        message: continuous
          ? `About ${s1(a.speechSeconds)} of speech was measured, under the 30 s minimum, but the speech is nearly continuous and the estimate may be low.`
          : `About ${s1(a.speechSeconds)} of speech was found; the service requires at least 30 s.`,
        action: continuous
          ? 'It will be uploaded; the service makes the final check (a refusal costs no credit).'
          : 'Record a longer session of free speech, or check that the right file was chosen.',
      });
    } else if (a.speechSeconds < min * (1 + NEAR_MARGIN)) {
      add({
        code: 'speech_near_minimum',
        severity: 'warn',
        fixedByConversion: false,
        message: `About ${s1(a.speechSeconds)} of speech was found, close to the 30 s minimum; the service measures it itself and may refuse it.`,
        action: 'Nothing to do now; prefer longer sessions.',
      });
    }
    if (opts.isolateOldestSpeaker && a.speechSeconds >= min && a.speechSeconds < 2 * min) {
      add({
        code: 'isolation_may_leave_too_little',
        severity: 'warn',
        fixedByConversion: false,
        message: `With "isolate oldest speaker", only that speaker's speech counts; of the ${s1(a.speechSeconds)} found, less than 30 s may remain.`,
        action: 'If another person speaks a lot, record a longer session.',
      });
    }
  }

  const refusals = findings.filter((f) => f.severity === 'refuse');
  const status: VerdictStatus =
    refusals.length === 0
      ? findings.length
        ? 'accepted_with_warnings'
        : 'accepted'
      : refusals.every((f) => f.fixedByConversion)
        ? opts.conversion
          ? 'will_convert'
          : 'needs_conversion'
        : 'refused';
  return { status, findings };
};
