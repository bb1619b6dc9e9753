/**
 * Listen and look: a recording's audio played on this computer (the original, or the converted copy
 * that was sent), its waveform with the speech the workstation detected shaded (the import's
 * 30-second check, `recordings.speech`), a spectrogram, a time axis, zoom and a selection to play.
 * Keyboard: Space plays and pauses, ← and → seek a second (with Shift five), + and − zoom, Escape clears
 * the selection. Drawn by wavesurfer.js 7 and its plugins (docs/ui.md says why). The F0 track of the
 * local measures is drawn over the spectrogram (PitchTrackLayer.tsx), on its axes (spectrogram-axis.ts).
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin, { type Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import SpectrogramPlugin from 'wavesurfer.js/dist/plugins/spectrogram.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import type { PitchTrackView } from '../../../../shared/contract/acoustics.contract';
import type { RecordingAudio, SpeechRegions } from '../../../../shared/contract/recordings.contract';
import { WAVEFORM_HEIGHT_PX, type MediaSource } from '../../../../shared/media';
import { useChartColours } from '../../components/chart-theme';
import { Notice } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { useCall } from '../../lib/api';
import { fmtBytes, fmtSeconds, plural } from '../../lib/format';
import { mediaUrl } from '../../lib/rpc/media-url';
import { PitchTrackLayer, PitchTrackLegend } from './PitchTrackLayer';
import { frequencyToY, SPECTROGRAM } from './spectrogram-axis';
import { usePlaceOnView, useViewRange } from './view-range';

const SOURCE_LABEL: Record<MediaSource, string> = {
  original: 'Original file',
  sent: 'Converted copy (what was sent)',
};

/** Zoom steps in pixels per second; 0 fits the whole recording in the width. */
const ZOOM_STEPS = [0, 25, 50, 100, 200, 400, 800] as const;
/** The spectrogram is computed in the window: not for recordings longer than this. */
const SPECTROGRAM_MAX_SECONDS = 15 * 60;

const KEYS =
  'Space plays or pauses, the arrow keys move by a second (with Shift five), plus and minus zoom, Escape clears the selection';

/** Seconds as m:ss.s, for the player's clock. */
const clock = (s: number) => {
  if (!Number.isFinite(s)) return '0:00.0';
  const m = Math.floor(s / 60);
  const r = s - m * 60;
  return `${m}:${r < 10 ? '0' : ''}${r.toFixed(1)}`;
};

type Speech = Extract<SpeechRegions, { available: true }>;

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
  const audioRef = useRef<HTMLAudioElement>(null);
  const waveRef = useRef<HTMLDivElement>(null);
  const spectroRef = useRef<HTMLDivElement>(null);
  const timelineRef = useRef<HTMLDivElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<RegionsPlugin | null>(null);
  const selection = useRef<Region | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [drawProblem, setDrawProblem] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [zoom, setZoom] = useState(0);
  const [selected, setSelected] = useState<{ start: number; end: number } | null>(null);
  const [pitchShown, setPitchShown] = useState(true);
  /** Counts the spectrogram's and the ruler's redraws: each is placed on the view again after one. */
  const [redraws, setRedraws] = useState(0);
  const view = useViewRange(ws.current, ready, redraws);
  usePlaceOnView(view, spectroRef.current, timelineRef.current, redraws);

  // The address to play from: a session ticket in browser mode, app:// in the desktop app.
  useEffect(() => {
    let live = true;
    setUrl(null);
    setProblem(null);
    void mediaUrl(path).then((r) => {
      if (!live) return;
      if (r.ok) setUrl(r.value);
      else setProblem(r.error);
    });
    return () => {
      live = false;
    };
  }, [path]);

  // The waveform, spectrogram and time axis over the page's own audio element, which streams the
  // file in byte ranges (so playing starts at once) while wavesurfer reads it whole to draw it.
  useEffect(() => {
    const media = audioRef.current;
    if (!url || !media || !waveRef.current || !spectroRef.current || !timelineRef.current) return;
    setReady(false);
    setDrawProblem(null);
    const reg = RegionsPlugin.create();
    const redrawn = () => setRedraws((n) => n + 1);
    const ruler = TimelinePlugin.create({
      container: timelineRef.current,
      height: 20,
      style: { color: colours.text, fontSize: '12px' },
    });
    const w = WaveSurfer.create({
      container: waveRef.current,
      media,
      height: WAVEFORM_HEIGHT_PX,
      waveColor: colours.muted,
      progressColor: colours.v13,
      cursorColor: colours.text,
      cursorWidth: 2,
      sampleRate: 16_000,
      dragToSeek: false,
      plugins: [reg, ruler],
    });
    ws.current = w;
    regions.current = reg;
    // The waveform's scrolling box (inside wavesurfer's shadow root) is the one tab stop: zoomed in, it
    // scrolls, so it must take the keyboard; the keys below work there.
    const scroller = w.getWrapper().parentElement;
    if (scroller) {
      scroller.tabIndex = 0;
      scroller.setAttribute('role', 'group');
      scroller.setAttribute('aria-label', `Waveform of the ${label.toLowerCase()}: ${KEYS}`);
    }
    // Set after wavesurfer is made (it would load a source it finds), before it loads: it then keeps
    // this address for playing instead of a copy in memory.
    media.src = url;
    const unsubs = [
      w.on('decode', (d) => {
        setDuration(d);
        if (d <= SPECTROGRAM_MAX_SECONDS && spectroRef.current)
          w.registerPlugin(
            SpectrogramPlugin.create({
              container: spectroRef.current,
              height: SPECTROGRAM.height,
              // Its frequency labels would cover the first seconds: they stand in a gutter beside it.
              labels: false,
              frequencyMin: SPECTROGRAM.frequencyMin,
              frequencyMax: SPECTROGRAM.frequencyMax,
              fftSamples: SPECTROGRAM.fftSamples,
              scale: SPECTROGRAM.scale,
            }),
          ).on('ready', redrawn);
      }),
      w.on('ready', (d) => {
        setDuration(d);
        setReady(true);
      }),
      w.on('error', (e) => {
        if (e.name === 'AbortError') return; // a load replaced by the next one
        setDrawProblem(
          'The waveform could not be drawn: this browser cannot decode the file. It may still play.',
        );
      }),
      w.on('timeupdate', (t) => setTime(t)),
      ruler.on('ready', redrawn),
      w.on('play', () => setPlaying(true)),
      w.on('pause', () => setPlaying(false)),
      w.on('finish', () => setPlaying(false)),
      reg.on('region-created', (r) => {
        if (r.id.startsWith('speech-')) return;
        // One selection at a time: a new drag replaces the last.
        if (selection.current && selection.current !== r) selection.current.remove();
        selection.current = r;
        r.element?.setAttribute('data-kind', 'selection');
        setSelected({ start: r.start, end: r.end });
      }),
      reg.on('region-updated', (r) => {
        if (r === selection.current) setSelected({ start: r.start, end: r.end });
      }),
    ];
    const stopSelecting = reg.enableDragSelection({ color: 'rgb(180 83 9 / 25%)' });
    void w.load(url).catch(() => {
      /* reported through 'error' */
    });
    return () => {
      stopSelecting();
      unsubs.forEach((u) => u());
      w.destroy();
      ws.current = null;
      regions.current = null;
      selection.current = null;
      setSelected(null);
      setPlaying(false);
      media.removeAttribute('src');
      media.load();
    };
    // The theme's colours are applied below without reloading.
  }, [url]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    ws.current?.setOptions({
      waveColor: colours.muted,
      progressColor: colours.v13,
      cursorColor: colours.text,
    });
  }, [colours]);

  // The speech the estimate found, shaded once the waveform is drawn.
  useEffect(() => {
    const reg = regions.current;
    if (!ready || !reg) return;
    for (const r of reg.getRegions()) if (r.id.startsWith('speech-')) r.remove();
    if (!speech) return;
    speech.segments.forEach((g, i) => {
      const r = reg.addRegion({
        id: `speech-${i}`,
        start: g.start,
        end: g.end,
        drag: false,
        resize: false,
        color: colours.band,
      });
      r.element?.setAttribute('data-kind', 'speech');
      r.element?.setAttribute('data-start', String(g.start));
      r.element?.setAttribute('data-end', String(g.end));
    });
  }, [ready, speech, colours.band]);

  useEffect(() => {
    if (ready) ws.current?.zoom(zoom);
  }, [ready, zoom]);

  const toggle = useCallback(() => {
    const w = ws.current;
    const media = audioRef.current;
    if (w) void w.playPause();
    else if (media) void (media.paused ? media.play() : Promise.resolve(media.pause()));
  }, []);
  const seekBy = (s: number) => {
    const w = ws.current;
    if (w) w.setTime(Math.max(0, Math.min(w.getDuration() || 0, w.getCurrentTime() + s)));
  };
  const zoomBy = (d: number) =>
    setZoom((z) => {
      const i = ZOOM_STEPS.indexOf(z as (typeof ZOOM_STEPS)[number]);
      return ZOOM_STEPS[Math.max(0, Math.min(ZOOM_STEPS.length - 1, i + d))]!;
    });
  const playSelection = () => {
    const r = selection.current;
    if (r) r.play(true);
  };
  const clearSelection = () => {
    selection.current?.remove();
    selection.current = null;
    setSelected(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    // Controls keep their own keys: a button's Space, a slider's arrows.
    if (t.closest('input, select, textarea')) return;
    if (e.key === ' ' && t.closest('button')) return;
    if (e.key === ' ' || e.key === 'k') toggle();
    else if (e.key === 'ArrowLeft') seekBy(e.shiftKey ? -5 : -1);
    else if (e.key === 'ArrowRight') seekBy(e.shiftKey ? 5 : 1);
    else if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-') zoomBy(-1);
    else if (e.key === 'Escape' && selected) clearSelection();
    else return;
    e.preventDefault();
  };

  if (problem) return <Notice tone="bad">{problem}</Notice>;
  return (
    <div className="player" onKeyDown={onKeyDown}>
      {/* The page's own element: it streams the file; wavesurfer only draws it. */}
      <audio ref={audioRef} preload="metadata" aria-label={label} data-testid="recording-audio" />
      <div className="player-controls">
        <button type="button" className="button primary" onClick={toggle} disabled={!url}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <span className="player-clock" aria-live="off">
          <span data-testid="player-time">{clock(time)}</span> / {clock(duration)}
        </span>
        <label className="player-zoom">
          Zoom{' '}
          <input
            type="range"
            min={0}
            max={ZOOM_STEPS.length - 1}
            step={1}
            value={Math.max(0, ZOOM_STEPS.indexOf(zoom as (typeof ZOOM_STEPS)[number]))}
            onChange={(e) => setZoom(ZOOM_STEPS[Number(e.target.value)] ?? 0)}
            aria-valuetext={zoom === 0 ? 'whole recording' : `${zoom} pixels per second`}
            disabled={!ready}
          />
        </label>
        {selected ? (
          <>
            <span className="muted">
              Selection {clock(selected.start)}–{clock(selected.end)} (
              {fmtSeconds(selected.end - selected.start)})
            </span>
            <button type="button" className="button" onClick={playSelection}>
              Play selection
            </button>
            <button type="button" className="button" onClick={clearSelection}>
              Clear selection
            </button>
          </>
        ) : (
          <span className="muted small">Drag across the waveform to select a stretch.</span>
        )}
      </div>
      <div className="waveform" ref={waveRef} data-testid="waveform" data-ready={ready ? 'true' : 'false'} />
      <div className="waveform-timeline" ref={timelineRef} aria-hidden="true" />
      <div className="spectrogram-row">
        <SpectrogramGutter />
        <div className="spectrogram-box">
          <div
            className="spectrogram"
            ref={spectroRef}
            aria-label={`Spectrogram, 50 Hz to 8 kHz on a logarithmic axis${pitch && pitchShown ? ', with the pitch track drawn over it' : ''}`}
            role="img"
          />
          {pitch && <PitchTrackLayer view={view} track={pitch} shown={pitchShown} />}
        </div>
      </div>
      <PitchTrackLegend track={pitch} shown={pitchShown} onToggle={setPitchShown} />
      {drawProblem && <p className="muted">{drawProblem}</p>}
      {duration > SPECTROGRAM_MAX_SECONDS && (
        <p className="muted small">
          The spectrogram is drawn for recordings up to {SPECTROGRAM_MAX_SECONDS / 60} minutes.
        </p>
      )}
    </div>
  );
};

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
          {hasSent && (
            <fieldset className="source-switch">
              <legend>Play</legend>
              {playable.map((s) => (
                <label key={s.which}>
                  <input
                    type="radio"
                    name="audio-source"
                    value={s.which}
                    checked={which === s.which}
                    onChange={() => setWhich(s.which)}
                  />{' '}
                  {SOURCE_LABEL[s.which]}
                  {s.sizeBytes !== null ? <span className="muted"> ({fmtBytes(s.sizeBytes)})</span> : null}
                </label>
              ))}
            </fieldset>
          )}
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
