/**
 * Building blocks shared by both wire versions. Objects are zod's default (unknown keys are
 * accepted and dropped), so extra fields a newer service adds never break parsing.
 */
import { z } from 'zod';
import { AnalysisStatus } from './vocabulary';

/** "All identifiers are strings in UUID format": any 8-4-4-4-12 hex string, whatever its variant bits. */
export const Uuid = z.guid();
/** ISO 8601 date-time with a zone (Z or offset), with or without fractional seconds. */
export const DateTime = z.iso.datetime({ offset: true });
/** Integers must be exact in a JavaScript number; anything larger would be silently rounded. */
export const Int = z.int();
export const Double = z.number();
export const Score100 = z.int().min(0).max(100);
export const Status = AnalysisStatus;

/**
 * The sandbox marks what it simulates with this extra field (tolerated by any client); the client also
 * honours the `X-Voicescope-Simulated` header. A real service never sends it.
 */
export const SIMULATED_HEADER = 'x-voicescope-simulated';
export const Simulation = z.object({ simulated: z.boolean(), generator: z.string().nullish() });
export type Simulation = z.infer<typeof Simulation>;

export const Ping = z.object({ message: z.string() });
export type Ping = z.infer<typeof Ping>;
