/** The pitch range local measures are computed with, as the study stores it and each measurement records it. */
import { z } from 'zod';

export const PitchSettingsSchema = z.object({
  /** Pitch floor in Hz (Praat's "pitch floor"); also the harmonicity's minimum pitch. */
  pitchFloor: z.number().positive(),
  /** Pitch ceiling in Hz. */
  pitchCeiling: z.number().positive(),
});
export type PitchSettings = Readonly<z.infer<typeof PitchSettingsSchema>>;

export const DEFAULT_PITCH_SETTINGS: PitchSettings = { pitchFloor: 75, pitchCeiling: 500 };
