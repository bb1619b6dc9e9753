/**
 * The local acoustic measures and the quality control of recordings (migration 0150): which recordings
 * of a study are not measured yet, storing one measurement, and reading them back per recording or per
 * study (exports, the recording page).
 */
import { z } from 'zod';
import { PitchSettingsSchema } from '../../../shared/acoustics/pitch-settings';
import { trackBytes, trackFromBytes, type PitchTrack } from '../../acoustics/pitch-track';
import { jsonColumn } from '../json-column';
import { readableSelect } from '../readable-columns';
import type { Queryable, Store } from '../store/types';

/** The JSON columns of `local_measurements`; a study's measurements share their settings and most reasons. */
const MeasuredSettingsSchema = PitchSettingsSchema.partial();
/** The pitch range a measurement was computed with, as it was recorded. */
export type MeasuredSettings = Readonly<z.output<typeof MeasuredSettingsSchema>>;
const settingsColumn = jsonColumn('local_measurements', 'settings', MeasuredSettingsSchema, {
  valuesRepeat: true,
});
const problemColumn = jsonColumn(
  'local_measurements',
  'problem',
  z.object({ code: z.string(), detail: z.string() }),
);
const reasonsColumn = jsonColumn('local_measurements', 'qc_reasons', z.array(z.string()), {
  valuesRepeat: true,
});

export interface RecordingAudio {
  readonly id: number;
  readonly sourcePath: string;
  readonly uploadPath: string | null;
}

/** The study's recordings without a local measurement (or, with `again`, all of them), oldest first. */
export const recordingsToMeasure = async (
  q: Queryable,
  studyId: number,
  again = false,
): Promise<RecordingAudio[]> =>
  (
    await q.all<{ id: number; source_path: string; upload_path: string | null }>(
      `SELECT r.id, r.source_path, r.upload_path FROM recordings r
        WHERE r.study_id = ? AND (? = 1 OR NOT EXISTS (SELECT 1 FROM local_measurements m WHERE m.recording_id = r.id))
        ORDER BY r.id`,
      [studyId, again ? 1 : 0],
    )
  ).map((r) => ({ id: r.id, sourcePath: r.source_path, uploadPath: r.upload_path }));

export interface StoredQuality {
  readonly verdict: 'good' | 'usable' | 'poor';
  readonly reasons: readonly string[];
  readonly durationSeconds: number;
  readonly snrDb: number | null;
  readonly clippingRatio: number;
  readonly peakDbfs: number | null;
  readonly rmsDbfs: number | null;
  readonly dcOffset: number;
  readonly longSilences: number;
  readonly longSilenceSeconds: number;
}

export interface StoredMeasurement {
  readonly recordingId: number;
  readonly measuredAt: string;
  readonly engineVersion: string;
  /** The settings the measures were computed with (pitch range). */
  readonly settings: MeasuredSettings;
  /** Null when the login may not read it (a team study's analyst: file paths can name a person). */
  readonly audioPath: string | null;
  /** The problem, when the recording could not be measured (then no quality and no measures). */
  readonly problem: { readonly code: string; readonly detail: string } | null;
  readonly quality: StoredQuality | null;
  /** Measure key → value (null: undefined for this recording). */
  readonly measures: Readonly<Record<string, number | null>>;
}

/** A measurement as it is written: its settings and problem as the JSON stored. */
export type MeasurementToSave = Omit<StoredMeasurement, 'settings' | 'problem'> & {
  readonly settings: string;
  readonly problem: string | null;
};

/**
 * Stores (or replaces) one recording's measurement, its measures and quality, and the F0 track they
 * come from when given, in one transaction (a replaced measurement's old track goes with it).
 */
export const saveMeasurement = (
  store: Store,
  m: MeasurementToSave,
  track: PitchTrack | null = null,
): Promise<void> => {
  const q = m.quality;
  return store.transaction(
    async (tx) => {
      await tx.run(`DELETE FROM local_measurements WHERE recording_id = ?`, [m.recordingId]);
      await tx.run(
        `INSERT INTO local_measurements (recording_id, measured_at, engine_version, settings, audio_path, problem,
         qc_verdict, qc_reasons, qc_duration_seconds, qc_snr_db, qc_clipping_ratio, qc_peak_dbfs, qc_rms_dbfs,
         qc_dc_offset, qc_long_silences, qc_long_silence_seconds)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          m.recordingId,
          m.measuredAt,
          m.engineVersion,
          m.settings,
          m.audioPath,
          m.problem,
          q?.verdict ?? null,
          q ? JSON.stringify(q.reasons) : null,
          q?.durationSeconds ?? null,
          q?.snrDb ?? null,
          q?.clippingRatio ?? null,
          q?.peakDbfs ?? null,
          q?.rmsDbfs ?? null,
          q?.dcOffset ?? null,
          q?.longSilences ?? null,
          q?.longSilenceSeconds ?? null,
        ],
      );
      for (const [k, v] of Object.entries(m.measures))
        await tx.run(`INSERT INTO local_measures (recording_id, measure, value) VALUES (?, ?, ?)`, [
          m.recordingId,
          k,
          v,
        ]);
      if (track)
        await tx.run(
          `INSERT INTO local_pitch_tracks (recording_id, first_time, step, frames, f0) VALUES (?, ?, ?, ?, ?)`,
          [m.recordingId, track.firstTime, track.step, track.f0.length, trackBytes(track.f0)],
        );
    },
    { repeatable: true },
  );
};

/** The F0 track of one recording's measurement; null when not measured, or measured before tracks were kept. */
export const pitchTrackOf = async (q: Queryable, recordingId: number): Promise<PitchTrack | null> => {
  const r = await q.get<{ first_time: number; step: number; f0: Buffer }>(
    `SELECT first_time, step, f0 FROM local_pitch_tracks WHERE recording_id = ?`,
    [recordingId],
  );
  return r ? { firstTime: r.first_time, step: r.step, f0: trackFromBytes(r.f0) } : null;
};

interface Row {
  recording_id: number;
  measured_at: string;
  engine_version: string;
  settings: string;
  audio_path: string | null;
  problem: string | null;
  qc_verdict: 'good' | 'usable' | 'poor' | null;
  qc_reasons: string | null;
  qc_duration_seconds: number | null;
  qc_snr_db: number | null;
  qc_clipping_ratio: number | null;
  qc_peak_dbfs: number | null;
  qc_rms_dbfs: number | null;
  qc_dc_offset: number | null;
  qc_long_silences: number | null;
  qc_long_silence_seconds: number | null;
}

/** Row's columns, in the table's order. */
const MEASUREMENT_COLUMNS = [
  'recording_id',
  'measured_at',
  'engine_version',
  'settings',
  'audio_path',
  'problem',
  'qc_verdict',
  'qc_reasons',
  'qc_duration_seconds',
  'qc_snr_db',
  'qc_clipping_ratio',
  'qc_peak_dbfs',
  'qc_rms_dbfs',
  'qc_dc_offset',
  'qc_long_silences',
  'qc_long_silence_seconds',
] as const satisfies readonly (keyof Row)[];

/** The measurement's columns, the audio path as NULL when the login may not read it (a team study's analyst). */
const measurementSelect = (q: Queryable) => readableSelect(q, 'local_measurements', MEASUREMENT_COLUMNS);

const toStored = (r: Row, measures: Record<string, number | null>): StoredMeasurement => ({
  recordingId: r.recording_id,
  measuredAt: r.measured_at,
  engineVersion: r.engine_version,
  settings: settingsColumn.decode(r.settings),
  audioPath: r.audio_path,
  problem: problemColumn.decodeOrNull(r.problem),
  quality:
    r.qc_verdict === null
      ? null
      : {
          verdict: r.qc_verdict,
          reasons: reasonsColumn.decodeOrNull(r.qc_reasons) ?? [],
          durationSeconds: r.qc_duration_seconds ?? 0,
          snrDb: r.qc_snr_db,
          clippingRatio: r.qc_clipping_ratio ?? 0,
          peakDbfs: r.qc_peak_dbfs,
          rmsDbfs: r.qc_rms_dbfs,
          dcOffset: r.qc_dc_offset ?? 0,
          longSilences: r.qc_long_silences ?? 0,
          longSilenceSeconds: r.qc_long_silence_seconds ?? 0,
        },
  measures,
});

/** One recording's measurement; null when it was never measured. */
export const measurementOf = async (q: Queryable, recordingId: number): Promise<StoredMeasurement | null> => {
  const r = await q.get<Row>(
    `SELECT ${await measurementSelect(q)} FROM local_measurements WHERE recording_id = ?`,
    [recordingId],
  );
  if (!r) return null;
  const values = await q.all<{ measure: string; value: number | null }>(
    `SELECT measure, value FROM local_measures WHERE recording_id = ?`,
    [recordingId],
  );
  return toStored(r, Object.fromEntries(values.map((v) => [v.measure, v.value])));
};

/** Whether any recording of the study has a local measurement. */
export const studyHasMeasurements = async (q: Queryable, studyId: number): Promise<boolean> =>
  (await q.get(
    `SELECT 1 FROM local_measurements m JOIN recordings r ON r.id = m.recording_id WHERE r.study_id = ? LIMIT 1`,
    [studyId],
  )) !== undefined;

/**
 * The measurements of these recordings (a block of an export's, read as it goes: never a whole
 * study's at once), by recording id; a recording never measured is absent.
 */
export const measurementsOfRecordings = async (
  q: Queryable,
  recordingIds: readonly number[],
): Promise<Map<number, StoredMeasurement>> => {
  const ids = [JSON.stringify(recordingIds)];
  const rows = await q.all<Row>(
    `SELECT ${await measurementSelect(q)} FROM local_measurements WHERE recording_id IN (${q.dialect.jsonValues('?', 'integer')})`,
    ids,
  );
  if (rows.length === 0) return new Map();
  const values = await q.all<{ recording_id: number; measure: string; value: number | null }>(
    `SELECT recording_id, measure, value FROM local_measures WHERE recording_id IN (${q.dialect.jsonValues('?', 'integer')})`,
    ids,
  );
  const byRec = new Map<number, Record<string, number | null>>();
  for (const v of values) {
    const m = byRec.get(v.recording_id) ?? {};
    m[v.measure] = v.value;
    byRec.set(v.recording_id, m);
  }
  return new Map(rows.map((r) => [r.recording_id, toStored(r, byRec.get(r.recording_id) ?? {})]));
};
