/**
 * Local acoustic measures and recording quality control: one recording's measures as
 * computed on this machine, with their provenance, for the recording page beside the service's values.
 * Keys, units and labels: shared/acoustics/measures.ts.
 */
import { z } from 'zod';
import { eventDef, procedure } from '../rpc';
import { strict, tokenText } from './bounds';
import { Id } from './views';

export const QUALITY_VERDICTS = ['good', 'usable', 'poor'] as const;

export const RecordingQualitySchema = z.object({
  verdict: z.enum(QUALITY_VERDICTS),
  /** Why the verdict is not good, in the researcher's words; empty when good. */
  reasons: z.array(z.string()),
  durationSeconds: z.number(),
  snrDb: z.number().nullable(),
  clippingRatio: z.number(),
  peakDbfs: z.number().nullable(),
  rmsDbfs: z.number().nullable(),
  dcOffset: z.number(),
  longSilences: z.number(),
  longSilenceSeconds: z.number(),
});
export type RecordingQuality = z.infer<typeof RecordingQualitySchema>;

export const LocalMeasurementSchema = z.object({
  measuredAt: z.string(),
  engineVersion: z.string(),
  pitchFloorHz: z.number().nullable(),
  pitchCeilingHz: z.number().nullable(),
  /** Why the audio could not be measured; null when it was. */
  problem: z.string().nullable(),
  quality: RecordingQualitySchema.nullable(),
  /** Measure key → value; null: undefined for this recording (no voiced frame, no pause). */
  measures: z.record(z.string(), z.number().nullable()),
});
export type LocalMeasurement = z.infer<typeof LocalMeasurementSchema>;

/**
 * The F0 track the local measures come from, for drawing on the spectrogram: frame i at
 * `firstTime + i · step` seconds, `f0[i]` in Hz rounded to 0.01, 0 where unvoiced; with the pitch range
 * it was computed in.
 */
export const PitchTrackSchema = z.object({
  firstTime: z.number(),
  step: z.number().positive(),
  f0: z.array(z.number().nonnegative()),
  pitchFloorHz: z.number().nullable(),
  pitchCeilingHz: z.number().nullable(),
  engineVersion: z.string(),
});
export type PitchTrackView = z.infer<typeof PitchTrackSchema>;

/** One file of an import preview: its quality control, or why it could not be checked (not a WAV file…). */
export const PreviewQualitySchema = z.object({
  path: z.string(),
  quality: RecordingQualitySchema.nullable(),
  problem: z.string().nullable(),
});
export type PreviewQuality = z.infer<typeof PreviewQualitySchema>;

export const acousticsEvents = {
  /** Measuring a study's new recordings in the background, after an import. */
  'acoustics.progress': eventDef(z.object({ studyId: Id, done: z.number(), total: z.number() })),
} as const;

export const acousticsContract = {
  /** null: the recording was not measured locally yet. */
  'acoustics.recording': procedure(strict({ recordingId: Id }), LocalMeasurementSchema.nullable()),
  /** null: not measured locally, or measured before tracks were kept (measure again to see it). */
  'acoustics.pitchTrack': procedure(strict({ recordingId: Id }), PitchTrackSchema.nullable()),
  /**
   * The quality control of an import preview's WAV files, before anything is committed or sent (no credit
   * spent): the files the preview would import, on worker threads. null: the preview is gone.
   */
  'acoustics.planQuality': procedure(
    strict({ planId: tokenText() }),
    z.array(PreviewQualitySchema).nullable(),
  ),
} as const;
