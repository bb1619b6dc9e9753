/**
 * The F0 track of the local measures drawn over the spectrogram: on the spectrogram's own
 * scales (spectrogram-axis.ts), following its width through resizes, page zoom and waveform zoom, with
 * a legend, a switch and a text alternative (median, range and voiced share). The track is the one
 * stored with the measures (migration 0160): the same engine run and pitch range as the numbers in
 * "Local acoustic measures", read at once rather than computed again.
 */
import { useId } from 'react';
import type { PitchTrackView } from '../../../../shared/contract/acoustics.contract';
import { SPECTROGRAM, runPath, trackRuns, trackSummary } from './spectrogram-axis';
import type { ViewRange } from './view-range';
import { fmtInt, fmtNumber } from '../../lib/format';

/** Light line on a dark halo: readable on every colour of the spectrogram, in light and dark themes. */
export const PITCH_LINE = '#5ef2ff';
const PITCH_HALO = 'rgb(0 0 0 / 75%)';

const hz = (v: number) => `${fmtInt(Math.round(v))} Hz`;

/** The sentence that stands for the drawing (screen readers, and under the legend for everyone). */
export const pitchTrackText = (t: PitchTrackView): string => {
  const s = trackSummary(t);
  const range =
    t.pitchFloorHz !== null && t.pitchCeilingHz !== null
      ? ` (searched between ${fmtInt(t.pitchFloorHz)} and ${fmtInt(t.pitchCeilingHz)} Hz)`
      : '';
  if (!s) return `Pitch track: no voiced frame found${range}.`;
  return `Pitch track: median ${hz(s.medianHz)}, range ${hz(s.minHz)} to ${hz(s.maxHz)}, voiced in ${fmtInt(Math.round(s.voicedShare * 100))} % of the ${fmtNumber(t.step * 1000, 1)} ms frames${range}.`;
};

/** Drawn on the player's view (view-range.ts): as wide as the waveform's drawing, scrolled as far. */
export const PitchTrackLayer = ({
  view,
  track,
  shown,
}: {
  view: ViewRange;
  track: PitchTrackView;
  shown: boolean;
}) => {
  const { widthPx: width, scrollPx: scroll, duration } = view;
  if (!shown || width === 0 || duration === 0) return null;
  const runs = trackRuns(track, duration, width);
  const h = SPECTROGRAM.height;
  return (
    <svg
      className="pitch-track"
      data-testid="pitch-track"
      data-width={width}
      data-duration={duration}
      width={width}
      height={h}
      viewBox={`0 0 ${width} ${h}`}
      style={{ transform: `translateX(${-scroll}px)` }}
      aria-hidden="true"
      focusable="false"
    >
      {runs.map((r) => (
        <g key={r.from} data-from={r.from}>
          <path d={runPath(r)} stroke={PITCH_HALO} strokeWidth={4} fill="none" strokeLinecap="round" />
          <path
            d={runPath(r)}
            stroke={PITCH_LINE}
            strokeWidth={2}
            fill="none"
            strokeLinecap="round"
            data-run="pitch"
          />
        </g>
      ))}
    </svg>
  );
};

/** The legend, the switch and the text alternative, under the spectrogram. */
export const PitchTrackLegend = ({
  track,
  shown,
  onToggle,
}: {
  track: PitchTrackView | null | undefined;
  shown: boolean;
  onToggle: (shown: boolean) => void;
}) => {
  const textId = useId();
  if (track === undefined) return null;
  if (track === null)
    return (
      <p className="muted small">
        No pitch track: this recording has not been measured on this machine, or was measured before the
        tracks were kept (measure it again: <code>voicescope measure --study &lt;name&gt; --again</code>).
      </p>
    );
  return (
    <div className="pitch-legend">
      <label>
        <input
          type="checkbox"
          checked={shown}
          onChange={(e) => onToggle(e.target.checked)}
          aria-describedby={textId}
        />{' '}
        Show the pitch track
      </label>
      <span className="pitch-legend-key" aria-hidden="true">
        <svg width="28" height="10" focusable="false">
          <line x1="2" y1="5" x2="26" y2="5" stroke={PITCH_HALO} strokeWidth={4} strokeLinecap="round" />
          <line x1="2" y1="5" x2="26" y2="5" stroke={PITCH_LINE} strokeWidth={2} strokeLinecap="round" />
        </svg>{' '}
        F0 from the local measures ({track.engineVersion}), on the spectrogram’s frequency axis
      </span>
      <p id={textId} className="muted small" data-testid="pitch-track-text">
        {pitchTrackText(track)}
      </p>
    </div>
  );
};
