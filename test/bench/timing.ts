/** Times a synchronous call `n` times (after one warm-up call): the median and the slowest, in ms. */
export const timeRuns = (fn: () => unknown, n = 20): { p50: number; max: number } => {
  fn();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return { p50: xs[Math.floor(n / 2)]!, max: xs.at(-1)! };
};

/** The same for an asynchronous call, each awaited before the next. */
export const timeRunsAsync = async (
  fn: () => Promise<unknown>,
  n = 20,
): Promise<{ p50: number; max: number }> => {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return { p50: xs[Math.floor(n / 2)]!, max: xs.at(-1)! };
};
