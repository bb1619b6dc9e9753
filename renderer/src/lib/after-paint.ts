/**
 * Runs `f` once the browser has painted the next frame: a frame callback (which runs before that
 * frame's style, layout and paint), then a task queued from it (which runs after them). Work that needs
 * the page laid out (focus, reading boxes) finds it laid out there, instead of forcing a layout before
 * the frame. Returns a function that cancels it.
 */
export const afterPaint = (
  f: () => void,
  frame: (cb: () => void) => number = (cb) => requestAnimationFrame(cb),
  cancelFrame: (id: number) => void = (id) => cancelAnimationFrame(id),
): (() => void) => {
  let task: ReturnType<typeof setTimeout> | undefined;
  const id = frame(() => {
    task = setTimeout(f, 0);
  });
  return () => {
    cancelFrame(id);
    if (task !== undefined) clearTimeout(task);
  };
};
