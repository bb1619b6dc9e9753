/**
 * Listen and look: a recording's audio played on this computer (the original, or the converted copy
 * that was sent), its waveform with the speech the workstation detected shaded (the import's
 * 30-second check, `recordings.speech`), a spectrogram, a time axis, zoom and a selection to play.
 * Keyboard: Space plays and pauses, ← and → seek a second (with Shift five), + and − zoom, Escape clears
 * the selection (player-controls.ts). Drawn by wavesurfer.js 7 and its plugins (use-waveform.ts; docs/ui.md
 * says why). The F0 track of the local measures is drawn over the spectrogram (PitchTrackLayer.tsx), on
 * its axes (spectrogram-axis.ts).
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { PitchTrackView } from '../../../../shared/contract/acoustics.contract';
import type { RecordingAudio, SpeechRegions } from '../../../../shared/contract/recordings.contract';
import type { MediaSource } from '../../../../shared/media';
import { useChartColours } from '../../components/chart-theme';
import { Notice } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { useCall } from '../../lib/api';
import { fmtBytes, fmtSeconds, plural } from '../../lib/format';
import { PitchTrackLayer, PitchTrackLegend } from './PitchTrackLayer';
import { clock, keyCommand, seekTarget, ZOOM_STEPS, zoomedBy, zoomIndex } from './player-controls';
import { frequencyToY, SPECTROGRAM } from './spectrogram-axis';
import {
  SPECTROGRAM_MAX_SECONDS,
  useMediaUrl,
  useSpeechShading,
  useWaveform,
  type PlayerElements,
  type Speech,
  type Waveform,
} from './use-waveform';
import { usePlaceOnView, useViewRange, type ViewRange } from './view-range';

const SOURCE_LABEL: Record<MediaSource, string> = {
  original: 'Original file',
  sent: 'Converted copy (what was sent)',
};

const SpeechSummary = ({ speech, loading }: { speech: SpeechRegions | undefined; loading: boolean }) => {
  if (loading) return <p className="muted">Finding the speech in this recording…</p>;
  if (!speech) return null;
  if (!speech.available) return <p className="muted">Speech is not shaded: {speech.reason}</p>;
  return (
    <details className="speech-regions">
      <summary>
        Shaded: {plural(speech.segments.length, 'stretch', 'stretches')} of speech,{' '}
        {fmtSeconds(speech.speechSeconds)} of {fmtSeconds(speech.totalSeconds)}
        {speech.channels > 1
          ? speech.channel === 'mix'
            ? ' (in the mix of the channels)'
            : ` (in channel ${speech.channel}, the one with most speech)`
          : ''}
        , as the workstation’s estimate found it in the original file
      </summary>
      <div className="table-scroll">
        <table className="table compact">
          <caption className="sr-only">Speech stretches, in seconds from the start</caption>
          <thead>
            <tr>
              <th scope="col">Stretch</th>
              <th scope="col" className="right">
                From
              </th>
              <th scope="col" className="right">
                To
              </th>
              <th scope="col" className="right">
                Length
              </th>
            </tr>
          </thead>
          <tbody>
            {speech.segments.map((g, i) => (
              <tr key={i}>
                <th scope="row">{i + 1}</th>
                <td className="right">{clock(g.start)}</td>
                <td className="right">{clock(g.end)}</td>
                <td className="right">{fmtSeconds(g.end - g.start)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">Method: {speech.method}</p>
    </details>
  );
};

/** The spectrogram's frequencies, on its own scale, in a gutter to its left (never over the image). */
const GUTTER_HZ = [50, 100, 200, 500, 1000, 2000, 4000, 8000] as const;
const SpectrogramGutter = () => (
  <div className="spectrogram-gutter" aria-hidden="true" style={{ height: SPECTROGRAM.height }}>
    {GUTTER_HZ.map((hz) => (
      <span key={hz} style={{ top: frequencyToY(hz) }}>
        {hz >= 1000 ? `${hz / 1000} kHz` : `${hz} Hz`}
      </span>
    ))}
  </div>
);

/** The zoom, applied to the waveform once it is drawn. */
const useZoom = (wave: Waveform) => {
  const [zoom, setZoom] = useState(0);
  const { ready, ws } = wave;
  useEffect(() => {
    if (ready) ws.current?.zoom(zoom);
  }, [ready, zoom, ws]);
  return [zoom, setZoom] as const;
};

/**
 * Play and pause (through wavesurfer, or the audio element alone before it is drawn), seek, zoom, and
 * the keys for each. Controls keep their own keys: a button's Space, a slider's arrows.
 */
const usePlayerActions = (
  wave: Waveform,
  audio: PlayerElements['audio'],
  setZoom: (f: (z: number) => number) => void,
) => {
  const toggle = useCallback(() => {
    const w = wave.ws.current;
    const media = audio.current;
    if (w) void w.playPause();
    else if (media) void (media.paused ? media.play() : Promise.resolve(media.pause()));
  }, [wave.ws, audio]);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (t.closest('input, select, textarea')) return;
    if (e.key === ' ' && t.closest('button')) return;
    const c = keyCommand(e.key, e.shiftKey);
    if (c === null || (c.kind === 'clear' && !wave.selected)) return;
    const w = wave.ws.current;
    if (c.kind === 'toggle') toggle();
    else if (c.kind === 'seek') {
      if (w) w.setTime(seekTarget(w.getCurrentTime(), c.seconds, w.getDuration() || 0));
    } else if (c.kind === 'zoom') setZoom((z) => zoomedBy(z, c.by));
    else wave.clearSelection();
    e.preventDefault();
  };
  return { toggle, onKeyDown };
};

const PlayerControls = ({
  wave,
  url,
  zoom,
  onZoom,
  onToggle,
}: {
  wave: Waveform;
  url: string | null;
  zoom: number;
  onZoom: (z: number) => void;
  onToggle: () => void;
}) => (
  <div className="player-controls">
    <button type="button" className="button primary" onClick={onToggle} disabled={!url}>
      {wave.playing ? 'Pause' : 'Play'}
    </button>
    <span className="player-clock" aria-live="off">
      <span data-testid="player-time">{clock(wave.time)}</span> / {clock(wave.duration)}
    </span>
    <label className="player-zoom">
      Zoom{' '}
      <input
        type="range"
        min={0}
        max={ZOOM_STEPS.length - 1}
        step={1}
        value={zoomIndex(zoom)}
        onChange={(e) => onZoom(ZOOM_STEPS[Number(e.target.value)] ?? 0)}
        aria-valuetext={zoom === 0 ? 'whole recording' : `${zoom} pixels per second`}
        disabled={!wave.ready}
      />
    </label>
    {wave.selected ? (
      <>
        <span className="muted">
          Selection {clock(wave.selected.start)}–{clock(wave.selected.end)} (
          {fmtSeconds(wave.selected.end - wave.selected.start)})
        </span>
        <button type="button" className="button" onClick={wave.playSelection}>
          Play selection
        </button>
        <button type="button" className="button" onClick={wave.clearSelection}>
          Clear selection
        </button>
      </>
    ) : (
      <span className="muted small">Drag across the waveform to select a stretch.</span>
    )}
  </div>
);

/** The spectrogram with its frequency gutter, and the pitch track drawn over it. */
const SpectrogramRow = ({
  spectro,
  pitch,
  pitchShown,
  view,
}: {
  spectro: PlayerElements['spectro'];
  pitch: PitchTrackView | null | undefined;
  pitchShown: boolean;
  view: ViewRange;
}) => (
  <div className="spectrogram-row">
    <SpectrogramGutter />
    <div className="spectrogram-box">
      <div
        className="spectrogram"
        ref={spectro}
        aria-label={`Spectrogram, 50 Hz to 8 kHz on a logarithmic axis${pitch && pitchShown ? ', with the pitch track drawn over it' : ''}`}
        role="img"
      />
      {pitch && <PitchTrackLayer view={view} track={pitch} shown={pitchShown} />}
    </div>
  </div>
);

const Player = ({
  path,
  speech,
  label,
  pitch,
}: {
  path: string;
  speech: Speech | null;
  label: string;
  /** The local measures' F0 track; null when there is none, undefined while loading. */
  pitch: PitchTrackView | null | undefined;
}) => {
  const colours = useChartColours();
  const el: PlayerElements = {
    audio: useRef<HTMLAudioElement>(null),
    wave: useRef<HTMLDivElement>(null),
    spectro: useRef<HTMLDivElement>(null),
    timeline: useRef<HTMLDivElement>(null),
  };
  const [pitchShown, setPitchShown] = useState(true);
  const { url, problem } = useMediaUrl(path);
  const wave = useWaveform(url, el, label, colours);
  const view = useViewRange(wave.ws.current, wave.ready, wave.redraws);
  usePlaceOnView(view, el.spectro.current, el.timeline.current, wave.redraws);
  useSpeechShading(wave, speech, colours.band);
  const [zoom, setZoom] = useZoom(wave);
  const { toggle, onKeyDown } = usePlayerActions(wave, el.audio, setZoom);

  if (problem) return <Notice tone="bad">{problem}</Notice>;
  return (
    <div className="player" onKeyDown={onKeyDown}>
      {/* The page's own element: it streams the file; wavesurfer only draws it. */}
      <audio ref={el.audio} preload="metadata" aria-label={label} data-testid="recording-audio" />
      <PlayerControls wave={wave} url={url} zoom={zoom} onZoom={setZoom} onToggle={toggle} />
      <div
        className="waveform"
        ref={el.wave}
        data-testid="waveform"
        data-ready={wave.ready ? 'true' : 'false'}
      />
      <div className="waveform-timeline" ref={el.timeline} aria-hidden="true" />
      <SpectrogramRow spectro={el.spectro} pitch={pitch} pitchShown={pitchShown} view={view} />
      <PitchTrackLegend track={pitch} shown={pitchShown} onToggle={setPitchShown} />
      {wave.drawProblem && <p className="muted">{wave.drawProblem}</p>}
      {wave.duration > SPECTROGRAM_MAX_SECONDS && (
        <p className="muted small">
          The spectrogram is drawn for recordings up to {SPECTROGRAM_MAX_SECONDS / 60} minutes.
        </p>
      )}
    </div>
  );
};

/** Original or converted copy, when a converted copy was sent. */
const SourceSwitch = ({
  sources,
  which,
  onWhich,
}: {
  sources: RecordingAudio['sources'];
  which: MediaSource;
  onWhich: (w: MediaSource) => void;
}) => (
  <fieldset className="source-switch">
    <legend>Play</legend>
    {sources.map((s) => (
      <label key={s.which}>
        <input
          type="radio"
          name="audio-source"
          value={s.which}
          checked={which === s.which}
          onChange={() => onWhich(s.which)}
        />{' '}
        {SOURCE_LABEL[s.which]}
        {s.sizeBytes !== null ? <span className="muted"> ({fmtBytes(s.sizeBytes)})</span> : null}
      </label>
    ))}
  </fieldset>
);

/** The "Listen and look" section of the recording page. */
export const Listen = ({ recordingId }: { recordingId: number }) => {
  const audio = useCall('recordings.audio', { recordingId });
  const speech = useCall('recordings.speech', { recordingId }, { staleTime: Infinity });
  const pitch = useCall('acoustics.pitchTrack', { recordingId });
  const [which, setWhich] = useState<MediaSource>('original');
  const sources: RecordingAudio['sources'] = audio.data?.sources ?? [];
  const playable = sources.filter((s) => s.path !== null || s.which === 'original');
  const current = sources.find((s) => s.which === which);
  const hasSent = sources.some((s) => s.which === 'sent' && s.path !== null);
  const speechOk = speech.data?.available ? speech.data : null;
  return (
    <Section title="Listen and look">
      <p className="muted small">The audio is read from this computer and never leaves it.</p>
      {audio.isPending ? (
        <p className="muted">Finding the audio…</p>
      ) : audio.isError ? (
        <Notice tone="bad">{audio.error.message}</Notice>
      ) : (
        <>
          {hasSent && <SourceSwitch sources={playable} which={which} onWhich={setWhich} />}
          {current?.path ? (
            <Player
              key={current.path}
              path={current.path}
              speech={speechOk}
              label={SOURCE_LABEL[which]}
              pitch={pitch.isError ? null : pitch.data}
            />
          ) : (
            <Notice tone="warn">{current?.reason ?? 'This file cannot be played.'}</Notice>
          )}
          <SpeechSummary speech={speech.data} loading={speech.isPending} />
          {speech.isError && <p className="muted">Speech is not shaded: {speech.error.message}</p>}
        </>
      )}
    </Section>
  );
};
