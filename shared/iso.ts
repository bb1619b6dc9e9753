/** An instant (milliseconds since the epoch) as the ISO 8601 UTC text every stored and exchanged time uses. */
export const iso = (ms: number): string => new Date(ms).toISOString();
