/**
 * Local validation before any credit is spent: the service's limits (spec: Limits) applied to what
 * the probe read from the file. Each finding says, in a researcher's words, what is wrong and what to
 * do, and whether switching on conversion (one channel as mono 16 kHz WAV, for WAV files and for files
 * one of the product's decoders opens) would fix it.
 */
import { LIMITS } from '../../shared/api/vocabulary';
import type { DecodableProblem, ProbedAudio, ProbeProblem } from '../audio/probe';
import { convertedBytes } from '../audio/mono16k-stream';
import type { SpeechFigure } from '../../shared/study';

export type FindingCode =
  | 'empty'
  | 'not_audio'
  | 'unsupported_format'
  | 'unsupported_encoding'
  | 'unreadable'
  | 'too_large'
  | 'not_mono'
  | 'sample_rate_too_low'
  | 'sample_rate_below_16k'
  | 'bit_rate_too_low'
  | 'speech_too_short'
  | 'speech_borderline'
  | 'speech_not_measured'
  | 'truncated'
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
/** borderline: nothing refuses it, but its speech is too near the 30 s minimum to call; the researcher decides. */
export type VerdictStatus =
  'accepted' | 'accepted_with_warnings' | 'needs_conversion' | 'will_convert' | 'borderline' | 'refused';

export interface LocalVerdict {
  readonly status: VerdictStatus;
  readonly findings: readonly Finding[];
  readonly speech?: SpeechFigure | undefined;
}

export interface VerdictOptions {
  readonly isolateOldestSpeaker: boolean;
  /** The researcher switched on conversion (to mono, resampled to 16 kHz) for the files it can read. */
  readonly conversion: boolean;
  /** Its speech could not be measured: Voicescope cannot decode its audio (AAC), so the service will check. */
  readonly speechNotDecoded?: boolean;
  /** The speech figure used, stored with the verdict (its method and channel). */
  readonly speech?: SpeechFigure;
}

export { CONVERTED_RATE_HZ } from '../audio/mono16k-stream';

const s1 = (x: number) => `${x.toFixed(1)} s`;

/** A format the service does not take but Voicescope decodes: conversion sends it as mono 16 kHz WAV. */
const convertibleFormat = (p: ProbeProblem, decodedBy: string, conversion: boolean): LocalVerdict => ({
  status: conversion ? 'will_convert' : 'needs_conversion',
  findings: [
    {
      code: p.code,
      severity: 'refuse',
      message: p.message,
      action: `${conversion ? 'Conversion is on' : 'Switch on conversion'}: Voicescope decodes it (${decodedBy}) and sends one channel as mono 16 kHz WAV; the original file is kept.`,
      fixedByConversion: true,
    },
  ],
});

export const verdictFromProblem = (
  p: ProbeProblem,
  opts: { conversion: boolean } = { conversion: false },
): LocalVerdict => {
  if ((p.code === 'unsupported_format' || p.code === 'unsupported_encoding') && p.decodedBy !== undefined)
    return convertibleFormat(p, p.decodedBy, opts.conversion);
  const action: Record<ProbeProblem['code'], string> = {
    empty: 'Check that the file was copied completely from the recorder.',
    not_audio: 'Export the recording as WAV, MP3, MP4 (M4A) or OGG.',
    unsupported_format: 'Export the recording as WAV, MP3, MP4 (M4A) or OGG.',
    unsupported_encoding: 'Re-export it as uncompressed PCM WAV (16-bit, mono) or as MP3.',
    unreadable: 'The file looks damaged; copy it again from the recorder or re-export it.',
    too_large:
      'Shorten the recording, or export it compressed (MP3 at 64 kbit/s holds about 100 minutes in 50 MB).',
  };
  return {
    status: 'refused',
    findings: [
      {
        code: p.code,
        severity: 'refuse',
        message: p.message,
        action: p.action ?? action[p.code],
        fixedByConversion: false,
      },
    ],
  };
};

/** What a recording's speech says: too little, borderline, not measured, or nothing (enough). */
const speechFindings = (
  a: {
    speechSeconds: number | null;
    durationSeconds: number;
    /** Set when the speech was not measured because Voicescope cannot decode this format's audio. */
    undecodedFormat?: string;
  },
  opts: VerdictOptions,
): Finding[] => {
  const out: Finding[] = [];
  const { speechSeconds, durationSeconds } = a;
  const min = LIMITS.minSpeechSeconds;
  if (speechSeconds === null) {
    if (durationSeconds < min) {
      out.push({
        code: 'speech_too_short',
        severity: 'refuse',
        fixedByConversion: false,
        message: `The recording lasts ${s1(durationSeconds)}, so it cannot hold the 30 s of speech the service requires.`,
        action: 'Record at least 30 seconds of free speech (an open question helps).',
      });
    } else if (a.undecodedFormat !== undefined) {
      // Speech is measured in every file Voicescope decodes, unless something else refuses it already.
      out.push({
        code: 'speech_not_measured',
        severity: 'warn',
        fixedByConversion: false,
        message: `Speech time was not measured locally: Voicescope cannot decode the audio of this ${a.undecodedFormat.toUpperCase()} file. The service will check for 30 s of speech (the recording lasts ${s1(durationSeconds)}).`,
        action: 'Nothing to do; a refusal by the service costs no credit.',
      });
    }
  } else {
    const band = speechBand(speechSeconds);
    if (band === 'too_short') {
      out.push({
        code: 'speech_too_short',
        severity: 'refuse',
        fixedByConversion: false,
        message: `About ${s1(speechSeconds)} of speech was found; the service requires at least 30 s.`,
        action: 'Record a longer session of free speech, or check that the right file was chosen.',
      });
    } else if (band === 'borderline') {
      out.push({
        code: 'speech_borderline',
        severity: 'warn',
        fixedByConversion: false,
        message: `Borderline: about ${s1(speechSeconds)} of speech, within ${BORDERLINE_SECONDS} s of the 30 s minimum, where the local estimate cannot tell.`,
        action:
          'Send it to let the service decide (a refusal by the service costs no credit), or leave it out.',
      });
    }
    if (opts.isolateOldestSpeaker && speechSeconds >= min && speechSeconds < 2 * min) {
      out.push({
        code: 'isolation_may_leave_too_little',
        severity: 'warn',
        fixedByConversion: false,
        message: `With "isolate oldest speaker", only that speaker's speech counts; of the ${s1(speechSeconds)} found, less than 30 s may remain.`,
        action: 'If another person speaks a lot, record a longer session.',
      });
    }
  }

  return out;
};

/** The verdict of these findings: refused, refused but fixed by conversion, borderline, or accepted. */
const verdictOf = (findings: readonly Finding[], opts: VerdictOptions): LocalVerdict => {
  const refusals = findings.filter((f) => f.severity === 'refuse');
  const status: VerdictStatus =
    refusals.length === 0
      ? findings.some((f) => f.code === 'speech_borderline')
        ? 'borderline'
        : findings.length
          ? 'accepted_with_warnings'
          : 'accepted'
      : refusals.every((f) => f.fixedByConversion)
        ? opts.conversion
          ? 'will_convert'
          : 'needs_conversion'
        : 'refused';
  return { status, findings, ...(opts.speech ? { speech: opts.speech } : {}) };
};

/**
 * A format the service does not take but Voicescope decodes, with its speech measured from the decoded
 * audio: sent converted when the speech allows, refused for too little speech like any other file.
 */
export const judgeDecodedFormat = (
  p: DecodableProblem,
  speechSeconds: number,
  opts: VerdictOptions,
): LocalVerdict => {
  const format = convertibleFormat(p, p.decodedBy, opts.conversion).findings;
  const speech = speechFindings({ speechSeconds, durationSeconds: p.decoded.durationSeconds ?? 0 }, opts);
  return verdictOf([...format, ...speech], opts);
};

export const judgeAudio = (a: ProbedAudio, opts: VerdictOptions): LocalVerdict => {
  const findings: Finding[] = [];
  const isWav = a.format === 'wav';
  // Conversion reads WAV itself and any compressed file one of the product's decoders opens.
  const convertible = isWav || a.decodedBy !== undefined;
  const add = (f: Finding) => findings.push(f);
  const copyBytes = convertedBytes(a.durationSeconds);

  if (a.sizeBytes > LIMITS.maxAudioBytes) {
    const fixable = convertible && copyBytes <= LIMITS.maxAudioBytes;
    add({
      code: 'too_large',
      severity: 'refuse',
      fixedByConversion: fixable,
      message: `The file is ${(a.sizeBytes / 1e6).toFixed(1)} MB; the service accepts at most 50 MB.`,
      action: fixable
        ? 'Switch on conversion: as mono 16 kHz WAV it would be about ' +
          (copyBytes / 1e6).toFixed(1) +
          ' MB.'
        : 'Shorten the recording or export it compressed (MP3).',
    });
  }
  if (a.channels !== LIMITS.channels) {
    add({
      code: 'not_mono',
      severity: 'refuse',
      fixedByConversion: convertible,
      message: `The recording has ${a.channels} channels; the service accepts only mono.`,
      action: isWav
        ? 'Switch on conversion: the channel with the most speech is sent as mono (or choose a channel, or the mix); the original file is kept.'
        : convertible
          ? 'Switch on conversion: it is decoded and the channel with the most speech is sent as mono 16 kHz WAV (or choose a channel, or the mix); the original file is kept.'
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
        ? opts.conversion
          ? 'Conversion is on: it will be resampled to 16 kHz (this adds no detail, but passes a 16 kHz check).'
          : 'Switch on conversion to resample it to 16 kHz (this adds no detail, but passes a 16 kHz check).'
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

  const undecoded = opts.speechNotDecoded === true ? { undecodedFormat: a.format } : {};
  for (const f of speechFindings({ ...a, ...undecoded }, opts)) add(f);

  if (a.truncated) {
    add({
      code: 'truncated',
      severity: 'warn',
      fixedByConversion: false,
      message: `The file is shorter than its header says: the end of the recording is missing (${s1(a.durationSeconds)} are there).`,
      action: 'Copy it again from the recorder if you can; what is there can be sent as it is.',
    });
  }

  return verdictOf(findings, opts);
};

/** Where a speech estimate falls against the 30 s minimum, allowing for the estimator's measured error. */
export type SpeechBand = 'too_short' | 'borderline' | 'enough';

/**
 * Half-width of the borderline band around 30 s: the largest error the estimator made on the validation
 * corpus (4.0 s on 14 meeting clips, scripts/validation/speech-estimate.ts; mean absolute error 1.3 s),
 * so no clip of that corpus with enough speech is refused and none with too little is plainly accepted.
 */
export const BORDERLINE_SECONDS = 4;

export const speechBand = (speechSeconds: number): SpeechBand =>
  speechSeconds < LIMITS.minSpeechSeconds - BORDERLINE_SECONDS
    ? 'too_short'
    : speechSeconds < LIMITS.minSpeechSeconds + BORDERLINE_SECONDS
      ? 'borderline'
      : 'enough';
