/**
 * The recording player's controls: its clock reads m:ss.s, zoom moves step by step and stops at the
 * ends, and each key does what the player's label says (Space or k plays and pauses, the arrows seek a
 * second or five with Shift, plus and minus zoom, Escape clears the selection).
 */
import { describe, expect, it } from 'vitest';
import {
  clock,
  keyCommand,
  seekTarget,
  ZOOM_STEPS,
  zoomedBy,
  zoomIndex,
} from '../../../renderer/src/features/recording-detail/player-controls';

describe('the clock', () => {
  it('reads minutes and seconds to a tenth', () => {
    expect(clock(0)).toBe('0:00.0');
    expect(clock(75.25)).toBe('1:15.3');
    expect(clock(Number.NaN)).toBe('0:00.0');
  });

  it('carries a second that rounds up to ten, or a minute that rounds up to sixty', () => {
    expect(clock(9.96)).toBe('0:10.0');
    expect(clock(59.97)).toBe('1:00.0');
  });
});

describe('the zoom', () => {
  it('moves one step at a time and stops at the whole recording and at the closest view', () => {
    expect(zoomedBy(0, 1)).toBe(25);
    expect(zoomedBy(100, -1)).toBe(50);
    expect(zoomedBy(0, -1)).toBe(0);
    expect(zoomedBy(ZOOM_STEPS.at(-1)!, 1)).toBe(ZOOM_STEPS.at(-1));
  });

  it('puts the slider at the step shown', () => {
    expect(zoomIndex(0)).toBe(0);
    expect(zoomIndex(200)).toBe(4);
  });
});

describe('the keys', () => {
  it('play and pause with Space or k', () => {
    expect(keyCommand(' ', false)).toEqual({ kind: 'toggle' });
    expect(keyCommand('k', false)).toEqual({ kind: 'toggle' });
  });

  it('seek a second with the arrows, five with Shift', () => {
    expect(keyCommand('ArrowLeft', false)).toEqual({ kind: 'seek', seconds: -1 });
    expect(keyCommand('ArrowRight', true)).toEqual({ kind: 'seek', seconds: 5 });
  });

  it('zoom with plus (or =) and minus, clear with Escape, and leave other keys alone', () => {
    expect(keyCommand('+', false)).toEqual({ kind: 'zoom', by: 1 });
    expect(keyCommand('=', false)).toEqual({ kind: 'zoom', by: 1 });
    expect(keyCommand('-', false)).toEqual({ kind: 'zoom', by: -1 });
    expect(keyCommand('Escape', false)).toEqual({ kind: 'clear' });
    expect(keyCommand('a', false)).toBeNull();
  });

  it('seek no further than the start and the end', () => {
    expect(seekTarget(0.5, -1, 30)).toBe(0);
    expect(seekTarget(29.5, 5, 30)).toBe(30);
    expect(seekTarget(10, 1, 30)).toBe(11);
  });
});
