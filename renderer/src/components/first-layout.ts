/**
 * An element's first layout, told once: its width and whether it lies in the window (the
 * charts of a 200-session participant). One ResizeObserver for every element watched: its report comes
 * after the frame's own layout, before the paint, so reading the boxes there forces no layout (reading
 * them in a layout effect laid the page out an extra time, ~20 ms under load). Every box of the report
 * is read before anyone is told, and those told are told together (`tell`, e.g. React's flushSync), so
 * a chart drawn for the first box does not make the second box's read lay the page out again.
 */

/** What an element's first layout says about it. */
export interface FirstLayout {
  /** The content box's width in CSS pixels. */
  width: number;
  /** Some of the element is within the window's height. */
  inWindow: boolean;
}

/** A box lies in the window when part of it is between the window's top and bottom. */
export const inWindow = (box: { top: number; bottom: number }, windowHeight: number): boolean =>
  box.bottom > 0 && box.top < windowHeight;

/** One report's entries as first layouts, every box read before any listener is called. */
export const readFirstLayouts = <E>(
  entries: readonly { target: E; contentRect: { width: number } }[],
  boxOf: (target: E) => { top: number; bottom: number },
  windowHeight: number,
): { target: E; layout: FirstLayout }[] =>
  entries.map((e) => ({
    target: e.target,
    layout: { width: e.contentRect.width, inWindow: inWindow(boxOf(e.target), windowHeight) },
  }));

type Listener = (layout: FirstLayout) => void;
const listeners = new Map<Element, Listener>();
let observer: ResizeObserver | null = null;
let tellAll: (f: () => void) => void = (f) => f();

/**
 * Tells `listener` the element's first layout (once; then it is no longer watched). `tell` wraps the
 * calls of one report (the charts pass React's flushSync, so their state is rendered before the paint).
 * Returns a function that stops watching. Without ResizeObserver, returns null (the caller decides).
 */
export const watchFirstLayout = (
  el: Element,
  listener: Listener,
  tell: (f: () => void) => void,
): (() => void) | null => {
  if (typeof ResizeObserver === 'undefined') return null;
  tellAll = tell;
  observer ??= new ResizeObserver((entries) => {
    const mine = entries.filter((e) => listeners.has(e.target));
    const read = readFirstLayouts(mine, (t) => t.getBoundingClientRect(), window.innerHeight);
    const told = read.map(({ target, layout }) => {
      const l = listeners.get(target)!;
      listeners.delete(target);
      observer?.unobserve(target);
      return () => l(layout);
    });
    if (told.length) tellAll(() => told.forEach((f) => f()));
  });
  listeners.set(el, listener);
  observer.observe(el);
  return () => {
    listeners.delete(el);
    observer?.unobserve(el);
  };
};
