/**
 * A Chrome CPU profile (CDP `Profiler.stop`) summed for the breakdown probes
 * (first-screen-breakdown.ts, charts-breakdown.ts): self time by script and by function, and total
 * (inclusive) time of the top functions.
 */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
  /** µs on the browser's monotonic clock, the clock of a trace's `ts` (so a trace's marks can bound a span). */
  startTime?: number;
}

type CallFrame = CpuProfile['nodes'][number]['callFrame'];

/** Each node's parent, for walking a sample from its leaf up. */
export const parentsOf = (p: CpuProfile): Map<number, number> => {
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return parent;
};

export const printProfileTotals = (
  p: CpuProfile,
  o: {
    functions: number;
    totals: number;
    withColumn?: boolean;
    /** Only the samples within [from, to] (µs, the profile's and a trace's clock). */
    within?: { from: number; to: number };
  },
): void => {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = parentsOf(p);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byScript = new Map<string, number>();
  const key = (c: CallFrame) =>
    `${c.functionName || '(anon)'} ${c.url.split('/').pop()}:${c.lineNumber}${o.withColumn ? `:${c.columnNumber}` : ''}`;
  let at = p.startTime ?? 0;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (o.within && (at < o.within.from || at > o.within.to)) return;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const n = byId.get(id)!;
    self.set(key(n.callFrame), (self.get(key(n.callFrame)) ?? 0) + dt);
    const script = n.callFrame.url.split('/').pop() || n.callFrame.functionName;
    byScript.set(script, (byScript.get(script) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur)!.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `    ${v.toFixed(0).padStart(6)} ms  ${k}`);
  console.log('  self time by script:\n' + top(byScript, 12).join('\n'));
  console.log('  self time by function:\n' + top(self, o.functions).join('\n'));
  console.log('  total time by function:\n' + top(total, o.totals).join('\n'));
};
