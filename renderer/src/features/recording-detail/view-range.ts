/**
 * The one time axis of the player: which stretch of the recording is in view, read from the waveform
 * (wavesurfer's scrolling box) and nothing else. The spectrogram, the pitch track and the time ruler
 * are placed from this view, never from their own scrolling, so at every zoom and scroll position they
 * show the same seconds as the waveform.
 */
import { useEffect, useLayoutEffect, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';

export interface ViewRange {
  /** The drawing's full width in CSS pixels (the waveform's, zoomed). */
  readonly widthPx: number;
  /** How far the view is scrolled from the start, in CSS pixels. */
  readonly scrollPx: number;
  /** The visible width, in CSS pixels. */
  readonly visiblePx: number;
  /** The recording's length in seconds. */
  readonly duration: number;
}

export const NO_VIEW: ViewRange = { widthPx: 0, scrollPx: 0, visiblePx: 0, duration: 0 };

export const viewOf = (ws: WaveSurfer): ViewRange => ({
  widthPx: ws.getWrapper().offsetWidth,
  scrollPx: ws.getScroll(),
  visiblePx: ws.getWidth(),
  duration: ws.getDuration(),
});

/** The seconds in view: from the left edge to the right edge. */
export const secondsInView = (v: ViewRange): { readonly from: number; readonly to: number } =>
  v.widthPx === 0
    ? { from: 0, to: 0 }
    : {
        from: (v.scrollPx / v.widthPx) * v.duration,
        to: (Math.min(v.widthPx, v.scrollPx + v.visiblePx) / v.widthPx) * v.duration,
      };

const sameView = (a: ViewRange, b: ViewRange) =>
  a.widthPx === b.widthPx &&
  a.scrollPx === b.scrollPx &&
  a.visiblePx === b.visiblePx &&
  a.duration === b.duration;

/**
 * The waveform's view, kept current through scrolling, zoom, redraws and resizes (page zoom and window
 * resizes change the width without a wavesurfer event on every browser). `extra` are further events
 * that should re-read it (a plugin that has just drawn).
 */
export const useViewRange = (ws: WaveSurfer | null, ready: boolean, redraws: number): ViewRange => {
  const [view, setView] = useState<ViewRange>(NO_VIEW);
  useEffect(() => {
    if (!ws || !ready) return;
    const read = () =>
      setView((old) => {
        const v = viewOf(ws);
        return sameView(old, v) ? old : v;
      });
    read();
    const unsubs = [
      ws.on('redraw', read),
      ws.on('redrawcomplete', read),
      ws.on('zoom', read),
      ws.on('scroll', read),
    ];
    const ro = new ResizeObserver(read);
    ro.observe(ws.getWrapper());
    return () => {
      unsubs.forEach((u) => u());
      ro.disconnect();
    };
  }, [ws, ready, redraws]);
  return view;
};

/**
 * Places the spectrogram and the time ruler on the view: their boxes are as wide as the waveform's
 * drawing and scrolled as far; the spectrogram's frequency labels stay at its left edge. Run after
 * every change of the view and after either has drawn again (a redraw empties the spectrogram's box
 * for a moment, which resets its scrolling).
 */
export const usePlaceOnView = (
  view: ViewRange,
  spectrogram: HTMLElement | null,
  ruler: HTMLElement | null,
  redraws: number,
): void => {
  useLayoutEffect(() => {
    const spec = spectrogram?.firstElementChild;
    if (spec instanceof HTMLElement) {
      spec.scrollLeft = view.scrollPx;
      const labels = spec.querySelector<HTMLElement>('canvas[part="spec-labels"]');
      if (labels) labels.style.left = `${spec.scrollLeft}px`;
    }
    const line = ruler?.firstElementChild;
    if (ruler && line instanceof HTMLElement) {
      line.style.width = view.widthPx > 0 ? `${view.widthPx}px` : '';
      ruler.scrollLeft = view.scrollPx;
    }
  }, [view, spectrogram, ruler, redraws]);
};
