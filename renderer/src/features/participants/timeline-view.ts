/**
 * The participant timeline's small rules: which baseline sizes can be typed, and how many flagged values
 * the charts shown hold (the legend's count).
 */

/** The first sessions a baseline takes, as typed: a whole number from 1 to 20, or null. */
export const baselineSessionsOf = (typed: string): number | null => {
  const k = Number(typed);
  return Number.isInteger(k) && k >= 1 && k <= 20 ? k : null;
};

/** How many of the values on the charts shown are flagged as departing from the specification. */
export const flaggedOn = (
  chosen: readonly string[],
  seriesOf: (key: string) => readonly { points: readonly { flags: readonly unknown[] }[] }[] | undefined,
): number =>
  chosen.reduce(
    (n, key) =>
      n + (seriesOf(key) ?? []).reduce((k, s) => k + s.points.filter((p) => p.flags.length).length, 0),
    0,
  );
