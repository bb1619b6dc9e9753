/**
 * A chart as a standalone SVG document ("save any chart as SVG and PNG"): the same facts the
 * canvas shows (lines per series, points, the baseline or interquartile bands, markers, rings around
 * flagged values), with its title, axes and legend, in explicit colours so the file reads the same
 * anywhere. The PNG is this SVG drawn on a canvas at twice its size (chart-export.ts).
 */

export interface PlotLine {
  readonly points: readonly (readonly [number, number])[];
  readonly colour: string;
  readonly width?: number;
  readonly dash?: readonly number[] | undefined;
  readonly opacity?: number;
  /** Points drawn on the line: filled, hollow or none. */
  readonly dots?: 'filled' | 'hollow' | 'none';
}

export interface PlotModel {
  readonly title: string;
  readonly subtitle?: string;
  readonly x: {
    readonly min: number;
    readonly max: number;
    readonly label: string;
    readonly ticks: readonly { v: number; label: string }[];
  };
  readonly y: {
    readonly min: number;
    readonly max: number;
    readonly label: string;
    readonly ticks: readonly { v: number; label: string }[];
  };
  /** Filled rectangles in data units (baseline bands). */
  readonly rects?: readonly {
    x0: number;
    x1: number;
    y0: number;
    y1: number;
    colour: string;
    opacity: number;
  }[];
  /** Filled areas between two curves (interquartile bands). */
  readonly areas?: readonly {
    xs: readonly number[];
    lo: readonly number[];
    hi: readonly number[];
    colour: string;
    opacity: number;
  }[];
  readonly lines: readonly PlotLine[];
  /** Dashed rings around points (flagged values). */
  readonly rings?: readonly { x: number; y: number; colour: string }[];
  /**
   * Shapes at a point itself: a cross over an excluded recording's value, an arrow above (reliable
   * increase) or below (reliable decrease) a value.
   */
  readonly pointMarks?: readonly {
    x: number;
    y: number;
    shape: 'cross' | 'arrow-up' | 'arrow-down';
    colour: string;
  }[];
  /** Marker shapes in the lane above the plot (converted, marginal audio…), at an x. */
  readonly markers?: readonly {
    x: number;
    shape: 'diamond' | 'triangle' | 'ring' | 'square';
    colour: string;
  }[];
  /** Short texts at a point (the n of a group at a visit), above it. */
  readonly notes?: readonly { x: number; y: number; text: string; colour: string }[];
  readonly legend: readonly { label: string; colour: string; dash?: readonly number[] | undefined }[];
  readonly colours: {
    readonly text: string;
    readonly muted: string;
    readonly grid: string;
    readonly panel: string;
  };
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => (Number.isFinite(v) ? Number(v.toFixed(2)) : 0);

export const CHART_SVG_SIZE = { width: 760, height: 420 } as const;

/** "Nice" ticks (1, 2, 5 × 10^k) over [min, max]. */
export const niceTicks = (min: number, max: number, count = 5): number[] => {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
};

/** Where a model's plot lies in its SVG: the document's size and the data-to-pixel maps. */
export const plotLayout = (m: PlotModel) => {
  const { width: W } = CHART_SVG_SIZE;
  const legendRows = Math.ceil(m.legend.length / 3);
  const top = 64 + (m.markers?.length ? 18 : 0);
  const left = 72;
  const right = 24;
  const plotH = 280;
  const bottom = 48 + legendRows * 20;
  const H = top + plotH + bottom;
  const plotW = W - left - right;
  const X = (v: number) => left + ((v - m.x.min) / (m.x.max - m.x.min || 1)) * plotW;
  const Y = (v: number) => top + plotH - ((v - m.y.min) / (m.y.max - m.y.min || 1)) * plotH;
  return { W, H, top, left, plotW, plotH, X, Y };
};

/** The chart as an SVG document (UTF-8 text with its XML declaration). */
export const plotSvg = (m: PlotModel): string => {
  const { W, H, top, left, plotW, plotH, X, Y } = plotLayout(m);
  const c = m.colours;
  const out: string[] = [];
  out.push(
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${esc(m.title)}</title>`,
    `<rect width="${W}" height="${H}" fill="${esc(c.panel)}"/>`,
    `<text x="${left}" y="24" font-size="16" font-weight="600" fill="${esc(c.text)}">${esc(m.title)}</text>`,
  );
  if (m.subtitle) out.push(`<text x="${left}" y="44" fill="${esc(c.muted)}">${esc(m.subtitle)}</text>`);
  out.push(
    `<defs><clipPath id="plot"><rect x="${left}" y="${top}" width="${plotW}" height="${plotH}"/></clipPath></defs>`,
  );
  for (const t of m.y.ticks) {
    const y = n(Y(t.v));
    out.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${y}" y2="${y}" stroke="${esc(c.grid)}"/>`,
      `<text x="${left - 6}" y="${y + 4}" text-anchor="end" fill="${esc(c.muted)}">${esc(t.label)}</text>`,
    );
  }
  for (const t of m.x.ticks) {
    const x = n(X(t.v));
    out.push(
      `<line x1="${x}" x2="${x}" y1="${top}" y2="${top + plotH}" stroke="${esc(c.grid)}"/>`,
      `<text x="${x}" y="${top + plotH + 16}" text-anchor="middle" fill="${esc(c.muted)}">${esc(t.label)}</text>`,
    );
  }
  out.push(
    `<text x="${left + plotW / 2}" y="${top + plotH + 34}" text-anchor="middle" fill="${esc(c.text)}">${esc(m.x.label)}</text>`,
    `<text transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="${esc(c.text)}">${esc(m.y.label)}</text>`,
    `<g clip-path="url(#plot)">`,
  );
  for (const r of m.rects ?? []) {
    const y0 = Y(Math.max(r.y0, r.y1));
    out.push(
      `<rect x="${n(X(r.x0))}" y="${n(y0)}" width="${n(X(r.x1) - X(r.x0))}" height="${n(Y(Math.min(r.y0, r.y1)) - y0)}" fill="${esc(r.colour)}" fill-opacity="${r.opacity}"/>`,
    );
  }
  for (const a of m.areas ?? []) {
    if (a.xs.length === 0) continue;
    const upper = a.xs.map((x, i) => `${n(X(x))},${n(Y(a.hi[i]!))}`);
    const lower = a.xs.map((x, i) => `${n(X(x))},${n(Y(a.lo[i]!))}`).reverse();
    out.push(
      `<polygon points="${[...upper, ...lower].join(' ')}" fill="${esc(a.colour)}" fill-opacity="${a.opacity}"/>`,
    );
  }
  for (const l of m.lines) {
    const pts = l.points.map(([x, y]) => `${n(X(x))},${n(Y(y))}`).join(' ');
    const dash = l.dash?.length ? ` stroke-dasharray="${l.dash.join(' ')}"` : '';
    const op = l.opacity !== undefined ? ` stroke-opacity="${l.opacity}"` : '';
    if (l.points.length > 1)
      out.push(
        `<polyline points="${pts}" fill="none" stroke="${esc(l.colour)}" stroke-width="${l.width ?? 2}"${dash}${op}/>`,
      );
    if (l.dots !== 'none')
      for (const [x, y] of l.points)
        out.push(
          `<circle cx="${n(X(x))}" cy="${n(Y(y))}" r="3.5" stroke="${esc(l.colour)}" stroke-width="2" fill="${l.dots === 'hollow' ? esc(c.panel) : esc(l.colour)}"${op}/>`,
        );
  }
  for (const r of m.rings ?? [])
    out.push(
      `<circle cx="${n(X(r.x))}" cy="${n(Y(r.y))}" r="8" fill="none" stroke="${esc(r.colour)}" stroke-width="2" stroke-dasharray="3 2"/>`,
    );
  for (const pm of m.pointMarks ?? []) {
    const x = n(X(pm.x));
    const y = n(Y(pm.y));
    const col = esc(pm.colour);
    out.push(
      pm.shape === 'cross'
        ? `<path d="M${x - 5} ${y - 5} L${x + 5} ${y + 5} M${x - 5} ${y + 5} L${x + 5} ${y - 5}" stroke="${col}" stroke-width="2.5"/>`
        : pm.shape === 'arrow-up'
          ? `<path d="M${x} ${y - 17} L${x + 5} ${y - 9} L${x - 5} ${y - 9} Z" fill="${col}"/>`
          : `<path d="M${x} ${y + 17} L${x + 5} ${y + 9} L${x - 5} ${y + 9} Z" fill="${col}"/>`,
    );
  }
  for (const note of m.notes ?? [])
    out.push(
      `<text x="${n(X(note.x))}" y="${n(Y(note.y) - 10)}" text-anchor="middle" font-size="11" fill="${esc(note.colour)}">${esc(note.text)}</text>`,
    );
  out.push(`</g>`);
  const lane = top - 10;
  for (const mk of m.markers ?? []) {
    const x = n(X(mk.x));
    const col = esc(mk.colour);
    out.push(
      mk.shape === 'diamond'
        ? `<path d="M${x} ${lane - 5} L${x + 5} ${lane} L${x} ${lane + 5} L${x - 5} ${lane} Z" fill="${col}"/>`
        : mk.shape === 'triangle'
          ? `<path d="M${x} ${lane - 5} L${x + 5} ${lane + 4} L${x - 5} ${lane + 4} Z" fill="${col}"/>`
          : mk.shape === 'ring'
            ? `<circle cx="${x}" cy="${lane}" r="4" fill="none" stroke="${col}" stroke-width="2"/>`
            : `<rect x="${x - 4}" y="${lane - 4}" width="8" height="8" fill="none" stroke="${col}" stroke-width="2"/>`,
    );
  }
  m.legend.forEach((l, i) => {
    const x = left + (i % 3) * (plotW / 3);
    const y = top + plotH + 52 + Math.floor(i / 3) * 20;
    const dash = l.dash?.length ? ` stroke-dasharray="${l.dash.join(' ')}"` : '';
    out.push(
      `<line x1="${x}" x2="${x + 22}" y1="${y - 4}" y2="${y - 4}" stroke="${esc(l.colour)}" stroke-width="3"${dash}/>`,
      `<text x="${x + 28}" y="${y}" fill="${esc(c.text)}">${esc(l.label)}</text>`,
    );
  });
  out.push(`</svg>`);
  return out.join('\n');
};
