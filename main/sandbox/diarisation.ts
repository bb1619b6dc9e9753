/**
 * The sandbox's stand-in for `isolate_oldest_speaker`: it cannot diarise, so it keeps a share of the
 * speech (55–90 %) and of the duration (55–90 %) chosen deterministically from the audio's SHA-256.
 * The same file always gives the same retained audio.
 */
import type { AudioFacts } from './state';

export const RETAINED_SHARE_RANGE = [0.55, 0.9] as const;

const shareFrom = (sha256Hex: string, offsetHexChars: number): number => {
  const u = parseInt(sha256Hex.slice(offsetHexChars, offsetHexChars + 8), 16) / 0x1_0000_0000;
  const [lo, hi] = RETAINED_SHARE_RANGE;
  return lo + (hi - lo) * u;
};

/** The retained speaker's audio: same format, sample rate and bit rate; size, duration and speech scaled. */
export const retainedSpeakerFacts = (submitted: AudioFacts, sha256Hex: string): AudioFacts => {
  const speechShare = shareFrom(sha256Hex, 0);
  const durationShare = shareFrom(sha256Hex, 8);
  const durationSeconds = submitted.durationSeconds * durationShare;
  const speechSeconds = Math.min(submitted.speechSeconds * speechShare, durationSeconds);
  return {
    ...submitted,
    sizeBytes: Math.round(submitted.sizeBytes * durationShare),
    durationSeconds: round3(durationSeconds),
    speechSeconds: round3(speechSeconds),
  };
};

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
