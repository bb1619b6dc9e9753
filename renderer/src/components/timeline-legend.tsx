/**
 * The timeline chart's legend vocabulary: the markers above sessions, the shapes at points, the
 * line style of each API version, each with its words and its icon (and the canvas drawing of a marker).
 */
import { type SeriesSource } from '../../../shared/contract/timeline.contract';
import { type ChartColours } from './chart-theme';
import { type ChartSession, type ChartPoint } from './timeline-types';

/** How a flagged value is marked, in the legend's words. */
export const FLAGGED_LABEL = 'Flagged value: departs from the specification, kept as received';

/** Short words for a point's flags, e.g. for the table and the summary. */
export const flagWords = (p: ChartPoint): string =>
  p.flags
    .map((f) => `${f.code.replace(/_/g, ' ')} (received ${f.received ?? 'nothing'}; expected ${f.expected})`)
    .join('; ');

/** The ring drawn around a flagged point, and its legend icon. */
export const FlagRingIcon = () => (
  <svg
    className="marker-icon"
    width="14"
    height="14"
    viewBox="-7 -7 14 14"
    aria-hidden="true"
    focusable="false"
  >
    <circle r="2.5" fill="currentColor" />
    <circle r="5.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeDasharray="2.2 1.3" />
  </svg>
);

export type MarkerKey = 'converted' | 'marginalSpeech' | 'isolated' | 'warnings';
type Shape = 'diamond' | 'triangle' | 'ring' | 'square';

export const MARKERS: readonly { key: MarkerKey; label: string; shape: Shape }[] = [
  { key: 'converted', label: 'Converted before upload (e.g. stereo to mono)', shape: 'diamond' },
  { key: 'marginalSpeech', label: 'Marginal speech (under 36 s detected)', shape: 'triangle' },
  { key: 'isolated', label: 'Oldest speaker isolated', shape: 'ring' },
  { key: 'warnings', label: 'Local-check warning', shape: 'square' },
];

const NO_MARKERS: readonly (typeof MARKERS)[number][] = [];
const markersMade = new WeakMap<ChartSession, readonly (typeof MARKERS)[number][]>();
/** A session's markers, worked out once per session (every chart, its summary and its drawing ask). */
export const markersOf = (s: ChartSession | undefined): readonly (typeof MARKERS)[number][] => {
  if (!s) return NO_MARKERS;
  let ms = markersMade.get(s);
  if (!ms) {
    ms = MARKERS.filter((m) => (m.key === 'warnings' ? s.flags.warnings.length > 0 : s.flags[m.key]));
    markersMade.set(s, ms);
  }
  return ms;
};

export const drawShape = (
  ctx: CanvasRenderingContext2D,
  shape: Shape,
  x: number,
  y: number,
  r: number,
  colour: string,
  lineWidth: number,
) => {
  ctx.save();
  ctx.fillStyle = colour;
  ctx.strokeStyle = colour;
  ctx.lineWidth = lineWidth;
  ctx.beginPath();
  if (shape === 'diamond') {
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r, y);
    ctx.lineTo(x, y + r);
    ctx.lineTo(x - r, y);
    ctx.closePath();
    ctx.fill();
  }
  if (shape === 'triangle') {
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r, y + r * 0.8);
    ctx.lineTo(x - r, y + r * 0.8);
    ctx.closePath();
    ctx.fill();
  }
  if (shape === 'ring') {
    ctx.arc(x, y, r * 0.8, 0, Math.PI * 2);
    ctx.stroke();
  }
  if (shape === 'square') {
    ctx.rect(x - r * 0.75, y - r * 0.75, r * 1.5, r * 1.5);
    ctx.stroke();
  }
  ctx.restore();
};

/** The same shapes for legends and tables, as small inline SVGs. */
export const MarkerIcon = ({ shape }: { shape: Shape }) => (
  <svg
    className="marker-icon"
    width="14"
    height="14"
    viewBox="-7 -7 14 14"
    aria-hidden="true"
    focusable="false"
  >
    {shape === 'diamond' && <path d="M0 -6 L6 0 L0 6 L-6 0 Z" fill="currentColor" />}
    {shape === 'triangle' && <path d="M0 -6 L6 5 L-6 5 Z" fill="currentColor" />}
    {shape === 'ring' && <circle r="4.5" fill="none" stroke="currentColor" strokeWidth="2" />}
    {shape === 'square' && (
      <rect x="-4.5" y="-4.5" width="9" height="9" fill="none" stroke="currentColor" strokeWidth="2" />
    )}
  </svg>
);

export const VERSION_STYLE: Record<
  SeriesSource,
  { dash: number[] | undefined; hollow: boolean; words: string; name: string }
> = {
  'v1.3': { dash: undefined, hollow: false, words: 'solid line, filled points', name: 'API v1.3 results' },
  'v1.2': { dash: [6, 4], hollow: true, words: 'dashed line, hollow points', name: 'API v1.2 results' },
  // A local measure is alone on its chart (one series over every API version): drawn as v1.3's.
  local: {
    dash: undefined,
    hollow: false,
    words: 'solid line, filled points',
    name: 'Local measures (computed here from the audio, whatever the API version)',
  },
};
export const colourOf = (c: ChartColours, v: SeriesSource) => (v === 'v1.2' ? c.v12 : c.v13);

/** Shapes drawn at a point itself, in the legend's words. */
export const POINT_MARKS = {
  excluded: { shape: 'cross', label: 'Excluded from analysis by the researcher: drawn, counted nowhere' },
  reliable: {
    shape: 'arrow-up',
    label: 'Reliable change from the baseline (|RCI| ≥ 1.96): arrow up, increase; down, decrease',
  },
  outside: { shape: 'dotted', label: 'Outside every visit of the schedule (visit axis, dotted line)' },
} as const;

/** The point marks' legend icons. */
export const PointMarkIcon = ({ shape }: { shape: 'cross' | 'arrow-up' | 'dotted' }) => (
  <svg
    className="marker-icon"
    width="14"
    height="14"
    viewBox="-7 -7 14 14"
    aria-hidden="true"
    focusable="false"
  >
    {shape === 'cross' && <path d="M-5 -5 L5 5 M-5 5 L5 -5" stroke="currentColor" strokeWidth="2.5" />}
    {shape === 'arrow-up' && (
      <>
        <path d="M-3 -1 L3 -1 L0 -7 Z" fill="currentColor" />
        <path d="M-3 1 L3 1 L0 7 Z" fill="currentColor" />
      </>
    )}
    {shape === 'dotted' && (
      <path d="M0 -7 L0 7" stroke="currentColor" strokeWidth="2" strokeDasharray="1.5 2" />
    )}
  </svg>
);
