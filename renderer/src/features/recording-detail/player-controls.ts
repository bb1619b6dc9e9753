/**
 * The player's controls apart from the screen: its clock, its zoom steps, and what each key does.
 * Keyboard: Space (or k) plays and pauses, ← and → seek a second (with Shift five), + and − zoom,
 * Escape clears the selection.
 */

/** Seconds as m:ss.s, for the player's clock (rounded to the tenth first, so 59.97 s reads 1:00.0). */
export const clock = (s: number): string => {
  if (!Number.isFinite(s)) return '0:00.0';
  const tenths = Math.round(s * 10);
  const m = Math.floor(tenths / 600);
  const r = (tenths - m * 600) / 10;
  return `${m}:${r < 10 ? '0' : ''}${r.toFixed(1)}`;
};

/** Zoom steps in pixels per second; 0 fits the whole recording in the width. */
export const ZOOM_STEPS = [0, 25, 50, 100, 200, 400, 800] as const;

/** The slider's position of a zoom (the first step for one that is not a step). */
export const zoomIndex = (zoom: number): number =>
  Math.max(0, ZOOM_STEPS.indexOf(zoom as (typeof ZOOM_STEPS)[number]));

/** The zoom `by` steps in or out, stopping at the ends. */
export const zoomedBy = (zoom: number, by: number): number => {
  const i = ZOOM_STEPS.indexOf(zoom as (typeof ZOOM_STEPS)[number]);
  return ZOOM_STEPS[Math.max(0, Math.min(ZOOM_STEPS.length - 1, i + by))]!;
};

export type PlayerCommand =
  | { readonly kind: 'toggle' }
  | { readonly kind: 'seek'; readonly seconds: number }
  | { readonly kind: 'zoom'; readonly by: 1 | -1 }
  | { readonly kind: 'clear' };

/** What a key does in the player; null for a key it leaves alone. */
export const keyCommand = (key: string, shift: boolean): PlayerCommand | null => {
  if (key === ' ' || key === 'k') return { kind: 'toggle' };
  if (key === 'ArrowLeft') return { kind: 'seek', seconds: shift ? -5 : -1 };
  if (key === 'ArrowRight') return { kind: 'seek', seconds: shift ? 5 : 1 };
  if (key === '+' || key === '=') return { kind: 'zoom', by: 1 };
  if (key === '-') return { kind: 'zoom', by: -1 };
  if (key === 'Escape') return { kind: 'clear' };
  return null;
};

/** A seek's target: `by` seconds from `now`, kept within the recording. */
export const seekTarget = (now: number, by: number, duration: number): number =>
  Math.max(0, Math.min(duration, now + by));
