/**
 * A recording's facts in words for its page: where its date came from, the audio measured locally
 * beside what the service reported, and an event's stored detail as "key: value" pairs.
 */
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import type { ConversionView } from '../../../../shared/study';
import { fmtBytes, fmtInt, fmtNumber, fmtSeconds } from '../../lib/format';

export const DATE_SOURCE: Record<RecordingDetail['row']['recordedAtSource'], string> = {
  manifest: 'from the manifest',
  filename: 'from the file name',
  embedded: 'from the date stored in the file',
  file_mtime: 'from the file’s modification time (the least reliable source: check it)',
  researcher: 'entered by the researcher',
};

const hz = (n: number | null) => (n === null ? '—' : `${fmtInt(n)} Hz`);
const kbps = (n: number | null) => (n === null ? '—' : `${fmtInt(Math.round(n / 1000))} kbit/s`);
const channels = (n: number | null) =>
  n === null ? '—' : n === 1 ? 'mono' : n === 2 ? 'stereo' : `${n} channels`;

/** Each fact with what Voicescope measured and what the service reported ("—" before it reported). */
export const factRows = (d: Pick<RecordingDetail, 'local' | 'service'>): [string, string, string][] => {
  const s = d.service;
  return [
    ['Format', d.local.format ?? '—', s?.format ?? '—'],
    ['Channels', channels(d.local.channels), s ? 'not reported' : '—'],
    ['Sample rate', hz(d.local.sampleRateHz), s ? hz(s.sampleRateHz) : '—'],
    ['Bit rate', kbps(d.local.bitRateBps), s ? kbps(s.bitRateBps) : '—'],
    ['Size', fmtBytes(d.local.sizeBytes), s ? fmtBytes(s.sizeBytes) : '—'],
    ['Duration', fmtSeconds(d.local.durationSeconds), s ? fmtSeconds(s.durationSeconds) : '—'],
  ];
};

const valueInWords = (v: unknown): string =>
  typeof v === 'number'
    ? fmtNumber(v)
    : Array.isArray(v)
      ? v.join(', ')
      : typeof v === 'object' && v !== null
        ? JSON.stringify(v)
        : String(v);

/**
 * An event's JSON detail as [key, value] pairs (underscores as spaces, arrays joined), readable without
 * knowing JSON; null when the detail is not a JSON object (it is then shown as it is).
 */
export const eventDetailPairs = (detail: string): [string, string][] | null => {
  let o: unknown;
  try {
    o = JSON.parse(detail);
  } catch {
    return null;
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  return Object.entries(o).map(([k, v]) => [k.replace(/_/g, ' '), valueInWords(v)]);
};

/** How a converted copy was made, in one sentence: what decoded the original, the channel sent and the rate. */
export const conversionSentence = (c: ConversionView): string => {
  const decoded = c.decodedBy
    ? `Decoded from ${c.decodedBy.container.toUpperCase()} (${c.decodedBy.codec}) by ${c.decodedBy.decoder}`
    : 'Read as WAV';
  const channel = c.channel === 'mix' ? 'the mean of all channels' : `channel ${c.channel}`;
  const rate =
    c.resampledFromHz === null
      ? 'already at 16,000 Hz'
      : `resampled from ${fmtInt(c.resampledFromHz)} Hz to 16,000 Hz`;
  return `${decoded}; ${channel} sent as mono; ${rate}; written as 16-bit PCM WAV.`;
};
