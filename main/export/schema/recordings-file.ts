/**
 * recordings.csv: one row per recording, where every number came from. Its first columns open the wide and long files too.
 */
import { API_VERSIONS } from '../../../shared/api/vocabulary';
import { RECORDED_AT_SOURCES, UPLOAD_STATES } from '../../../shared/states';
import { col, fileNameOf, type ExportColumn } from '../column';
import { qualityColumns } from '../local-columns';
import { visitColumns } from '../visit-files';
import { conversionColumns } from '../conversion-columns';
import { type RecordingCtx } from './contexts';
import { simulatedOf, provenanceText, SIMULATED_MEANING } from './columns';
import { RECORDINGS_FILE, type ExportFile, file } from './file';

/** Columns that identify a recording and its time; the first columns of recordings.csv and of the wide file. */
export const recordingColumns = <C extends RecordingCtx>(tz: string): ExportColumn<C>[] => [
  col<C>(
    'recording',
    'integer',
    'Recording',
    "The workstation's number for this recording (the id the app and the voicescope command show). Joins the files of an export.",
    (c) => c.r.id,
    { required: true },
  ),
  col<C>(
    'participant',
    'string',
    'Participant',
    "The participant's code: the researcher's pseudonym, as imported.",
    (c) => c.r.participant,
    { required: true, neutralised: true },
  ),
  col<C>(
    'session',
    'string',
    'Session',
    'Session label from the import manifest or the file name; empty when the recording has none.',
    (c) => c.r.session,
    { neutralised: true },
  ),
  ...visitColumns<C>(),
  col<C>(
    'recorded_at_utc',
    'datetime',
    'Recorded at (UTC)',
    'When the recording began, in UTC.',
    (c) => c.recordedUtc,
    { timeFormat: 'utc', required: true },
  ),
  col<C>(
    'recorded_at_local',
    'datetime',
    `Recorded at (${tz})`,
    `When the recording began, as wall-clock time in ${tz}.`,
    (c) => c.recorded?.local,
    { timeFormat: 'local', required: true },
  ),
  col<C>(
    'utc_offset',
    'string',
    'UTC offset',
    `Offset of ${tz} from UTC at that instant (+HH:MM), so the local time can be turned back into UTC.`,
    (c) => c.recorded?.offset,
    { required: true },
  ),
];

/** The original audio file as the workstation read it, and where its recording time came from. */
const sourceFileColumns = <C extends RecordingCtx>(): ExportColumn<C>[] => [
  col<C>(
    'recorded_at_source',
    'string',
    'Source of recorded_at',
    "Where the recording time came from: the import manifest, the file name, the date embedded in the file, the file's modification time, or the researcher.",
    (c) => c.r.recordedAtSource,
    { enum: [...RECORDED_AT_SOURCES], required: true },
  ),
  col<C>(
    'file_name',
    'string',
    'File name',
    'Name of the original audio file (the name only, never its folder).',
    (c) => fileNameOf(c.r.sourcePath),
    { required: true, neutralised: true, readsFrom: 'recordings.source_path' },
  ),
  col<C>('file_size_bytes', 'integer', 'File size', 'Size of the original file.', (c) => c.r.sizeBytes, {
    unit: 'bytes',
    required: true,
  }),
  col<C>(
    'content_sha256',
    'string',
    'Content SHA-256',
    "SHA-256 of the original file's bytes (hexadecimal): identifies the audio whatever its name.",
    (c) => c.r.sha256,
    { required: true },
  ),
  col<C>(
    'file_format',
    'string',
    'File format',
    'Container format of the original file as the workstation read it (wav, mp3, mp4, ogg).',
    (c) => c.r.format,
  ),
  col<C>(
    'file_sample_rate_hz',
    'integer',
    'File sample rate',
    'Sample rate of the original file as the workstation read it.',
    (c) => c.r.sampleRateHz,
    { unit: 'Hz' },
  ),
  col<C>(
    'file_duration_seconds',
    'number',
    'File duration',
    'Duration of the original file as the workstation read it.',
    (c) => c.r.durationSeconds,
    { unit: 's' },
  ),
  col<C>(
    'speech_estimate_seconds',
    'number',
    'Speech estimate',
    "The workstation's own estimate of speech time before upload (WAV files only; the service's figure is speech_duration_seconds).",
    (c) => c.r.speechEstimateSeconds,
    { unit: 's' },
  ),
  col<C>(
    'converted',
    'boolean',
    'Converted copy uploaded',
    'true: a converted copy (mono, 16 kHz WAV) was uploaded instead of the original; the original was not changed.',
    (c) => c.r.converted === 1,
    { required: true },
  ),
  ...conversionColumns<C>(),
];

/** What the workstation knows of the recording: its upload state, exclusion and history. */
const workstationColumns = <C extends RecordingCtx>(): ExportColumn<C>[] => [
  col<C>(
    'upload_state',
    'string',
    'Upload state',
    'State of the upload in the workstation.',
    (c) => c.r.uploadState,
    { enum: [...UPLOAD_STATES], required: true },
  ),
  col<C>(
    'excluded',
    'boolean',
    'Excluded from analysis',
    "true: the researcher excluded this recording from analysis (the reason is in excluded_reason). Its row and values stay in the export; it does not count in participant_summary.csv's baselines and latest values, nor as the participant's latest recording.",
    (c) => c.r.excludedAt !== null,
    { required: true },
  ),
  col<C>(
    'excluded_reason',
    'string',
    'Reason for exclusion',
    "The researcher's reason for excluding the recording, as written; empty when it is not excluded.",
    (c) => c.r.excludedReason,
    { neutralised: true },
  ),
  col<C>(
    'provenance',
    'string',
    'Provenance notes',
    'What happened to the recording that an analyst must know, oldest first, separated by " | " (e.g. reassigned to another participant after upload: the service analysed it under the first participant\'s account). Empty when there is nothing to note.',
    (c) => provenanceText(c.r.provenance),
    { neutralised: true },
  ),
];

/** The upload as the service received it: its id, the API version, whether simulated, and when. */
const uploadColumns = <C extends RecordingCtx>(tz: string): ExportColumn<C>[] => [
  col<C>(
    'recording_id',
    'string',
    'Service recording id',
    "The service's id of the uploaded recording (UUID); empty if it was never accepted.",
    (c) => c.r.recordingId,
  ),
  col<C>(
    'api_version',
    'string',
    'API version',
    'Version of the service\'s interface the recording was uploaded and analysed through. Measures are the same in both; see "From v1.2 to v1.3".',
    (c) => c.r.apiVersion,
    { enum: [...API_VERSIONS] },
  ),
  col<C>('simulated', 'boolean', 'Simulated', SIMULATED_MEANING, (c) => simulatedOf(c.r.resultSource)),
  col<C>(
    'uploaded_at_utc',
    'datetime',
    'Uploaded at (UTC)',
    'When the service received the upload, in UTC.',
    (c) => c.uploadedUtc,
    { timeFormat: 'utc' },
  ),
  col<C>(
    'uploaded_at_local',
    'datetime',
    `Uploaded at (${tz})`,
    `When the service received the upload, as wall-clock time in ${tz}.`,
    (c) => c.uploaded?.local,
    { timeFormat: 'local' },
  ),
];

/** The audio as the service analysed it, and the import batch. */
const serviceAudioColumns = <C extends RecordingCtx>(): ExportColumn<C>[] => [
  col<C>(
    'audio_file_format',
    'string',
    'Format (service)',
    "Format the service detected (the service's audio_file_format).",
    (c) => c.r.svcFormat,
  ),
  col<C>(
    'audio_size_bytes',
    'integer',
    'Size (service)',
    'Size of the audio the service analysed; with isolate_oldest_speaker, of the retained audio.',
    (c) => c.r.svcSizeBytes,
    { unit: 'bytes' },
  ),
  col<C>(
    'audio_sample_rate_hz',
    'integer',
    'Sample rate (service)',
    'Sample rate the service reported.',
    (c) => c.r.svcSampleRateHz,
    { unit: 'Hz' },
  ),
  col<C>(
    'audio_bit_rate_bps',
    'integer',
    'Bit rate (service)',
    'Bit rate the service reported.',
    (c) => c.r.svcBitRateBps,
    { unit: 'bits/s' },
  ),
  col<C>(
    'audio_duration_seconds',
    'number',
    'Duration (service)',
    "Total seconds the service analysed; with isolate_oldest_speaker, the retained speaker's audio.",
    (c) => c.r.svcDurationSeconds,
    { unit: 's' },
  ),
  col<C>(
    'speech_duration_seconds',
    'number',
    'Speech duration (service)',
    "Seconds of speech the service detected; with isolate_oldest_speaker, the isolated speaker's speech.",
    (c) => c.r.svcSpeechSeconds,
    { unit: 's' },
  ),
  col<C>(
    'isolate_oldest_speaker',
    'boolean',
    'Oldest speaker isolated',
    'true: the service was asked to keep only the speaker it estimated to be oldest (v1.3 only).',
    (c) => (c.r.isolate === null ? null : c.r.isolate === 1),
  ),
  col<C>(
    'batch',
    'integer',
    'Import batch',
    "The workstation's number of the import batch.",
    (c) => c.r.batchId,
  ),
];

export const provenanceColumns = <C extends RecordingCtx>(tz: string): ExportColumn<C>[] => [
  ...sourceFileColumns<C>(),
  ...workstationColumns<C>(),
  ...uploadColumns<C>(tz),
  ...serviceAudioColumns<C>(),
];

export const recordingsFile = (tz: string, local = false): ExportFile<RecordingCtx> =>
  file(
    RECORDINGS_FILE,
    'provenance',
    'Recordings',
    'one recording',
    "Where every number came from: the audio file (name, size, hash), when it was recorded and uploaded, the service's recording id, the API version and whether the values are simulated. The other files join it on `recording`.",
    ['recording'],
    [
      ...recordingColumns<RecordingCtx>(tz),
      ...provenanceColumns<RecordingCtx>(tz),
      ...(local ? qualityColumns<RecordingCtx>() : []),
    ],
  );
