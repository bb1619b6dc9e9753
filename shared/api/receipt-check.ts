/**
 * Compares an upload receipt with what was sent: the account and the recording time
 * must be those of the request; the audio facts are compared with the workstation's own probe of the
 * file, within the tolerances below. Differences are flags on the recording, never a refusal.
 */
import { quantityText } from '../quantity-text';
import { dqFlag, type DataQualityFlag } from './data-quality';
import type { RecordingReceipt } from './domain';

export interface SentUpload {
  readonly accountId: string;
  /** ISO 8601 date-time with zone, as sent. */
  readonly recordedAt: string;
  readonly isolateOldestSpeaker: boolean;
  /** The local probe of the file sent (main/audio/probe.ts); speech seconds null when not measured. */
  readonly probe: {
    readonly format: string;
    readonly sizeBytes: number;
    readonly sampleRateHz: number;
    readonly durationSeconds: number;
    readonly speechSeconds: number | null;
  };
}

/** Documented tolerances (docs/spec-decisions.md). */
export const RECEIPT_TOLERANCE = {
  /** Duration: container headers and decoders disagree by a frame or so; 0.5 s or 1 %, whichever is larger. */
  durationSeconds: 0.5,
  durationShare: 0.01,
  /** Speech: our energy detector is rough next to the service's; 5 s or 20 %, whichever is larger. */
  speechSeconds: 5,
  speechShare: 0.2,
} as const;

/** Format names the service may use for what we call wav, mp3, mp4, ogg. */
const FORMAT_ALIASES: Readonly<Record<string, string>> = {
  wave: 'wav',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  mpeg: 'mp3',
  'audio/mpeg': 'mp3',
  m4a: 'mp4',
  aac: 'mp4',
  'audio/mp4': 'mp4',
  'audio/ogg': 'ogg',
  oga: 'ogg',
  opus: 'ogg',
  vorbis: 'ogg',
};
const formatOf = (f: string): string => {
  const s = f.trim().toLowerCase().replace(/^\./, '');
  return FORMAT_ALIASES[s] ?? s;
};

export const checkReceipt = (receipt: RecordingReceipt, sent: SentUpload): DataQualityFlag[] => {
  const flags: DataQualityFlag[] = [];
  const a = receipt.audio;
  const p = sent.probe;
  if (receipt.accountId !== null && receipt.accountId.toLowerCase() !== sent.accountId.toLowerCase())
    flags.push(dqFlag('receipt_account_differs', 'account_id', receipt.accountId, sent.accountId));
  if (receipt.recordedAt !== null) {
    const got = Date.parse(receipt.recordedAt);
    if (Number.isNaN(got) || got !== Date.parse(sent.recordedAt))
      flags.push(
        dqFlag(
          'receipt_recorded_at_differs',
          'recorded_at',
          receipt.recordedAt,
          `${sent.recordedAt} (the same instant)`,
        ),
      );
  }
  if (a.format !== null && formatOf(a.format) !== formatOf(p.format))
    flags.push(dqFlag('receipt_format_differs', 'audio_file_format', a.format, p.format));
  // With isolation the service describes the retained speaker's audio (spec: Recording), which is shorter.
  if (a.durationSeconds !== null) {
    const tol = Math.max(
      RECEIPT_TOLERANCE.durationSeconds,
      RECEIPT_TOLERANCE.durationShare * p.durationSeconds,
    );
    const off = a.durationSeconds - p.durationSeconds;
    if (off > tol || (!sent.isolateOldestSpeaker && -off > tol))
      flags.push(
        dqFlag(
          'receipt_duration_differs',
          'audio_duration_seconds',
          a.durationSeconds,
          `${quantityText(p.durationSeconds, 's')} ± ${quantityText(tol, 's')}`,
        ),
      );
  }
  if (a.sampleRateHz !== null && a.sampleRateHz !== p.sampleRateHz)
    flags.push(
      dqFlag(
        'receipt_sample_rate_differs',
        'audio_sample_rate_hz',
        a.sampleRateHz,
        quantityText(p.sampleRateHz, 'Hz'),
      ),
    );
  if (
    a.sizeBytes !== null &&
    (a.sizeBytes > p.sizeBytes || (!sent.isolateOldestSpeaker && a.sizeBytes !== p.sizeBytes))
  )
    flags.push(
      dqFlag('receipt_size_differs', 'audio_size_bytes', a.sizeBytes, quantityText(p.sizeBytes, 'bytes')),
    );
  if (a.speechDurationSeconds !== null && p.speechSeconds !== null) {
    const tol = Math.max(RECEIPT_TOLERANCE.speechSeconds, RECEIPT_TOLERANCE.speechShare * p.speechSeconds);
    const off = a.speechDurationSeconds - p.speechSeconds;
    if (off > tol || (!sent.isolateOldestSpeaker && -off > tol))
      flags.push(
        dqFlag(
          'receipt_speech_differs',
          'speech_duration_seconds',
          a.speechDurationSeconds,
          `${quantityText(p.speechSeconds, 's')} ± ${quantityText(tol, 's')} (local estimate)`,
        ),
      );
  }
  return flags;
};
