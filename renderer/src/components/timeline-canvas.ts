/**
 * A timeline chart's uPlot canvas, stage by stage: its scales, axes and series, then what its hooks draw
 * over the grid (baseline bands, recordings outside every visit) and over the lines (session markers,
 * flagged rings, excluded crosses, reliable-change arrows, the specification's edges). Each stage says on
 * the canvas' box what it drew (`data-bands`, `data-markers`, ...), for end-to-end tests: a canvas has no
 * DOM to query. The values come from timeline-plot-data.ts; this module only turns them into pixels.
 */
import uPlot from 'uplot';
import { type ChartAxis } from '../../../shared/chart-axis';
import { type ChartColours } from './chart-theme';
import { xSplits } from './timeline-data';
import { type ChartSession, type ChartSeries } from './timeline-types';
import { VERSION_STYLE, colourOf, drawShape, markersOf } from './timeline-legend';
import { axisTickLabel, paddedRange, type XOf } from './timeline-axis';
import {
  baselineBands,
  flaggedPoints,
  markerOffset,
  rangeEdges,
  recordingAt,
  spanOf,
  type ChartMarks,
  type Prepared,
} from './timeline-plot-data';

/** What one drawing of a chart is made of. */
export interface CanvasProps {
  series: readonly ChartSeries[];
  sessions: ReadonlyMap<number, ChartSession>;
  label: string;
  span: readonly [number, number] | undefined;
  axis: ChartAxis;
  xOf: XOf;
  data: Prepared;
  marks: ChartMarks;
  colours: ChartColours;
  onOpen: ((recordingId: number) => void) | undefined;
  /** Told when the plot is first drawn. */
  onDrawn: (() => void) | undefined;
}

export const HEIGHT = 170;

/** The inputs one drawing is made of: when none changed, the plot is not drawn again. */
export const sameDrawing = (a: CanvasProps, b: CanvasProps) =>
  a.data === b.data &&
  a.marks === b.marks &&
  a.series === b.series &&
  a.sessions === b.sessions &&
  a.span === b.span &&
  a.axis === b.axis &&
  a.xOf === b.xOf;

/** The drawing's latest inputs: a plot's scales, axes and hooks read them at each draw. */
type Now = () => CanvasProps;

const px = () => uPlot.pxRatio;

// Every chart of a participant shares one time axis (their first to last session), so sessions line up.
const spanNow = (c: CanvasProps) => spanOf(c.span, c.data);

/** Scales: not uPlot's time scale: the date axis' ticks are whole days (xSplits), as in the saved SVG, and
 * the same plot serves every axis. */
const scalesOf = (now: Now): uPlot.Scales => ({
  x: { time: false, range: () => paddedRange(now().axis, ...spanNow(now())) },
  y: { range: () => [now().data.lo, now().data.hi] },
});

/** Axes: the x axis' ticks and labels follow the axis shown; a categorical measure's levels label the y axis. */
const axesOf = (now: Now, colours: ChartColours, levels: readonly string[] | null): uPlot.Axis[] => {
  const axisStyle = {
    stroke: colours.muted,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1 },
    font: '12px system-ui, sans-serif',
  };
  return [
    {
      ...axisStyle,
      splits: (u, _i, min, max) => {
        const c = now();
        return xSplits(
          c.axis,
          min,
          max,
          u.bbox.width / px(),
          c.axis === 'visit' && !c.marks.visitNames ? 40 : 70,
        );
      },
      values: (_u, splits) => {
        const c = now();
        return splits.map(axisTickLabel(c.axis, ...spanNow(c), c.marks.visitNames));
      },
    },
    levels
      ? {
          ...axisStyle,
          size: 92,
          splits: () => levels.map((_, i) => i),
          values: (_u, splits) => splits.map((i) => levels[i] ?? ''),
        }
      : { ...axisStyle, size: 56 },
  ];
};

/** Series: one per API version, in its colour, line and point style; a categorical measure as steps. */
const seriesOf = (
  series: readonly ChartSeries[],
  colours: ChartColours,
  levels: readonly string[] | null,
): uPlot.Series[] => [
  {},
  ...series.map((s) => {
    const colour = colourOf(colours, s.apiVersion);
    const style = VERSION_STYLE[s.apiVersion];
    return {
      label: s.apiVersion,
      stroke: colour,
      width: 2,
      spanGaps: true,
      ...(style.dash ? { dash: style.dash } : {}),
      ...(levels ? { paths: uPlot.paths.stepped!({ align: 1 }) } : {}),
      points: { show: true, size: 8, width: 2, stroke: colour, fill: style.hollow ? colours.panel : colour },
    };
  }),
];

/** Draws with the context's state saved, and restores it after. */
const saved = (ctx: CanvasRenderingContext2D, draw: () => void) => {
  ctx.save();
  draw();
  ctx.restore();
};

/** Baseline bands, under the lines: mean ± 1 SD, stronger over the sessions that formed it; the mean dashed. */
const drawBands = (u: uPlot, c: CanvasProps): number => {
  const { ctx } = u;
  const p = px();
  const bands = baselineBands(c.series, c.xOf);
  for (const b of bands) {
    const x = (v: number) => u.valToPos(v, 'x', true);
    const top = u.valToPos(b.high, 'y', true);
    const bottom = u.valToPos(b.low, 'y', true);
    const mean = u.valToPos(b.mean, 'y', true);
    const x0 = x(b.from) - 4 * p;
    const xb = x(b.to) + 4 * p;
    const x1 = Math.max(x(b.last) + 4 * p, xb);
    const colour = colourOf(c.colours, b.source);
    saved(ctx, () => {
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      ctx.fillStyle = colour;
      ctx.globalAlpha = 0.1;
      if (b.filled) ctx.fillRect(x0, top, x1 - x0, bottom - top);
      ctx.globalAlpha = 0.12;
      if (b.filled) ctx.fillRect(x0, top, xb - x0, bottom - top);
      ctx.globalAlpha = 0.8;
      ctx.strokeStyle = colour;
      ctx.lineWidth = p;
      ctx.setLineDash([3 * p, 3 * p]);
      ctx.beginPath();
      ctx.moveTo(x0, mean);
      ctx.lineTo(x1, mean);
      ctx.stroke();
    });
  }
  return bands.length;
};

/** Recordings outside every visit: a dotted line under the points. */
const drawOutside = (u: uPlot, c: CanvasProps): number => {
  const { ctx } = u;
  const p = px();
  saved(ctx, () => {
    ctx.strokeStyle = c.colours.muted;
    ctx.lineWidth = 1.5 * p;
    ctx.setLineDash([1.5 * p, 3 * p]);
    for (const x of c.marks.outside) {
      const xp = u.valToPos(x, 'x', true);
      ctx.beginPath();
      ctx.moveTo(xp, u.bbox.top);
      ctx.lineTo(xp, u.bbox.top + u.bbox.height);
      ctx.stroke();
    }
  });
  return c.marks.outside.length;
};

/** Session markers, in a lane above the plot so they never hide a point. */
const drawMarkers = (u: uPlot, c: CanvasProps): number => {
  const p = px();
  const y = u.bbox.top - 11 * p;
  let drawn = 0;
  for (const s of c.series) {
    for (const pt of s.points) {
      const ms = markersOf(c.sessions.get(pt.recordingId));
      const x = u.valToPos(c.xOf(pt.recordedAt), 'x', true);
      ms.forEach((m, i) =>
        drawShape(u.ctx, m.shape, x + markerOffset(i, ms.length) * 12 * p, y, 5 * p, c.colours.marker, 2 * p),
      );
      drawn += ms.length;
    }
  }
  return drawn;
};

/** Flagged values: a dashed ring around the point itself, in the flag colour. */
const drawRings = (u: uPlot, c: CanvasProps): number => {
  const { ctx } = u;
  const p = px();
  const rings = flaggedPoints(c.series, c.data, c.xOf);
  saved(ctx, () => {
    ctx.strokeStyle = c.colours.flag;
    ctx.lineWidth = 2 * p;
    ctx.setLineDash([3 * p, 2 * p]);
    for (const r of rings) {
      ctx.beginPath();
      ctx.arc(u.valToPos(r.x, 'x', true), u.valToPos(r.y, 'y', true), 8 * p, 0, Math.PI * 2);
      ctx.stroke();
    }
  });
  return rings.length;
};

/** Excluded recordings' values: a cross, off the line. */
const drawCrosses = (u: uPlot, c: CanvasProps): number => {
  const { ctx } = u;
  const p = px();
  const r = 5 * p;
  saved(ctx, () => {
    ctx.strokeStyle = c.colours.text;
    ctx.lineWidth = 2.5 * p;
    for (const e of c.data.excluded) {
      const xp = u.valToPos(e.x, 'x', true);
      const yp = u.valToPos(e.y, 'y', true);
      ctx.beginPath();
      ctx.moveTo(xp - r, yp - r);
      ctx.lineTo(xp + r, yp + r);
      ctx.moveTo(xp - r, yp + r);
      ctx.lineTo(xp + r, yp - r);
      ctx.stroke();
    }
  });
  return c.data.excluded.length;
};

/** Reliable changes: an arrow above (increase) or below (decrease) the point. */
const drawArrows = (u: uPlot, c: CanvasProps): number => {
  const { ctx } = u;
  const p = px();
  for (const r of c.marks.reliable) {
    const xp = u.valToPos(r.x, 'x', true);
    const yp = u.valToPos(r.y, 'y', true);
    const d = r.direction === 'increase' ? -1 : 1;
    saved(ctx, () => {
      ctx.fillStyle = colourOf(c.colours, r.source);
      ctx.beginPath();
      ctx.moveTo(xp, yp + d * 17 * p);
      ctx.lineTo(xp + 5 * p, yp + d * 9 * p);
      ctx.lineTo(xp - 5 * p, yp + d * 9 * p);
      ctx.closePath();
      ctx.fill();
    });
  }
  return c.marks.reliable.length;
};

/** The specification's range, where a kept value lies beyond it: dotted lines, labelled. */
const drawRange = (u: uPlot, c: CanvasProps) => {
  const { ctx } = u;
  const p = px();
  saved(ctx, () => {
    ctx.strokeStyle = c.colours.muted;
    ctx.fillStyle = c.colours.muted;
    ctx.lineWidth = p;
    ctx.setLineDash([1 * p, 3 * p]);
    ctx.font = `${11 * p}px system-ui, sans-serif`;
    ctx.textAlign = 'left';
    for (const edge of rangeEdges(c.data)) {
      const y = u.valToPos(edge.value, 'y', true);
      ctx.beginPath();
      ctx.moveTo(u.bbox.left, y);
      ctx.lineTo(u.bbox.left + u.bbox.width, y);
      ctx.stroke();
      ctx.fillText(edge.label, u.bbox.left + 4 * p, edge.labelAbove ? y - 3 * p : y + 12 * p);
    }
  });
};

/** The hooks: under the lines after the grid (bands, outside visits), over them after the series (the rest). */
const hooksOf = (now: Now, el: HTMLElement): uPlot.Hooks.Arrays => ({
  drawAxes: [
    (u) => {
      const c = now();
      el.dataset['bands'] = String(drawBands(u, c));
      el.dataset['outside'] = String(drawOutside(u, c));
    },
  ],
  draw: [
    (u) => {
      const c = now();
      el.dataset['markers'] = String(drawMarkers(u, c));
      el.dataset['drawn'] = String(Number(el.dataset['drawn'] ?? 0) + 1);
      el.dataset['flagged'] = String(drawRings(u, c));
      el.dataset['excluded'] = String(drawCrosses(u, c));
      el.dataset['reliable'] = String(drawArrows(u, c));
      if (c.data.exceeded) {
        drawRange(u, c);
        el.dataset['range'] = `${c.data.exceeded[0]}–${c.data.exceeded[1]}`;
      }
    },
  ],
});

/**
 * A chart's uPlot options. `series` and `levels` are fixed when the plot is made; everything else is read
 * from `now()` at each draw, so new data, another axis or new marks update the same plot.
 */
export const plotOptions = (
  now: Now,
  el: HTMLElement,
  fixed: { series: readonly ChartSeries[]; levels: readonly string[] | null; colours: ChartColours },
): uPlot.Options => ({
  width: 200,
  height: HEIGHT,
  padding: [22, 28, 0, 0],
  legend: { show: false },
  cursor: { drag: { x: false, y: false }, points: { size: 9 } },
  scales: scalesOf(now),
  axes: axesOf(now, fixed.colours, fixed.levels),
  series: seriesOf(fixed.series, fixed.colours, fixed.levels),
  hooks: hooksOf(now, el),
});

/** A click on a point opens its recording (the table's dates are the same links, for the keyboard). */
const openOnClick = (plot: uPlot, now: Now) => {
  plot.over.style.cursor = 'pointer';
  plot.over.addEventListener('click', () => {
    const { series, xOf, data, onOpen } = now();
    if (!onOpen) return;
    const recordingId = recordingAt(series, data.xs, xOf, plot.cursor.idx);
    if (recordingId !== null) onOpen(recordingId);
  });
};

const widthOf = (w: number) => Math.max(200, Math.round(w));

/**
 * Makes the plot in `el` when the box's width is first known, and keeps it at the box's width. The width
 * comes from the box's first layout (`laidOut`, charts in the window) or from the resize observer: every
 * chart of the page gets its width from one layout (reading clientWidth chart by chart, each after the
 * last one's canvas went in, laid the page out again for each), and is drawn once, not again at that
 * width. Returns how to stop watching (the plot itself is the caller's to destroy).
 */
export const mountPlot = (
  el: HTMLElement,
  now: Now,
  opts: uPlot.Options,
  laidOut: number | null,
  made: (plot: uPlot, drawnWith: CanvasProps) => void,
): (() => void) => {
  let plot: uPlot | null = null;
  let width = 0;
  const make = (w: number) => {
    const c = now();
    plot = new uPlot({ ...opts, width: (width = w) }, [c.data.xs, ...c.data.ys], el);
    if (c.onOpen) openOnClick(plot, now);
    made(plot, c);
    c.onDrawn?.();
  };
  const resize = new ResizeObserver((entries) => {
    const w = widthOf(entries[0]?.contentRect.width ?? 0);
    if (!plot) make(w);
    else if (w !== width) plot.setSize({ width: (width = w), height: HEIGHT });
  });
  // Width known from the box's first layout: made now (this runs inside that layout's report); resizes
  // are watched from the next frame (observing it again inside the report would be skipped there and
  // reported as a ResizeObserver loop).
  let frame = 0;
  if (laidOut !== null) {
    make(widthOf(laidOut));
    frame = requestAnimationFrame(() => resize.observe(el));
  } else resize.observe(el);
  return () => {
    cancelAnimationFrame(frame);
    resize.disconnect();
  };
};
