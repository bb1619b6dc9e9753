/**
 * The player's drawing, by wavesurfer.js 7 and its plugins (docs/ui.md says why): the address the audio
 * plays from, the waveform with its time ruler and spectrogram over the page's own audio element, the
 * selection dragged across it, and the speech the workstation's estimate found, shaded.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin, { type Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import SpectrogramPlugin from 'wavesurfer.js/dist/plugins/spectrogram.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import type { SpeechRegions } from '../../../../shared/contract/recordings.contract';
import { WAVEFORM_HEIGHT_PX } from '../../../../shared/media';
import type { ChartColours } from '../../components/chart-theme';
import { mediaUrl } from '../../lib/rpc/media-url';
import { SPECTROGRAM } from './spectrogram-axis';

/** The spectrogram is computed in the window: not for recordings longer than this. */
export const SPECTROGRAM_MAX_SECONDS = 15 * 60;

export const KEYS =
  'Space plays or pauses, the arrow keys move by a second (with Shift five), plus and minus zoom, Escape clears the selection';

export type Speech = Extract<SpeechRegions, { available: true }>;

/** The address to play from: a session ticket in browser mode, app:// in the desktop app. */
export const useMediaUrl = (path: string) => {
  const [url, setUrl] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
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
  return { url, problem };
};

/** The page's elements the player draws into, and its own audio element. */
export interface PlayerElements {
  audio: RefObject<HTMLAudioElement | null>;
  wave: RefObject<HTMLDivElement | null>;
  spectro: RefObject<HTMLDivElement | null>;
  timeline: RefObject<HTMLDivElement | null>;
}

const waveColours = (c: ChartColours) => ({
  waveColor: c.muted,
  progressColor: c.v13,
  cursorColor: c.text,
});

/** Adds the spectrogram once the audio is decoded, for recordings short enough to compute it. */
const addSpectrogram = (w: WaveSurfer, box: HTMLElement, redrawn: () => void) =>
  w
    .registerPlugin(
      SpectrogramPlugin.create({
        container: box,
        height: SPECTROGRAM.height,
        // Its frequency labels would cover the first seconds: they stand in a gutter beside it.
        labels: false,
        frequencyMin: SPECTROGRAM.frequencyMin,
        frequencyMax: SPECTROGRAM.frequencyMax,
        fftSamples: SPECTROGRAM.fftSamples,
        scale: SPECTROGRAM.scale,
      }),
    )
    .on('ready', redrawn);

/**
 * The waveform's scrolling box (inside wavesurfer's shadow root) is the one tab stop: zoomed in, it
 * scrolls, so it must take the keyboard; the player's keys work there.
 */
const makeScrollerFocusable = (w: WaveSurfer, label: string) => {
  const scroller = w.getWrapper().parentElement;
  if (!scroller) return;
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'group');
  scroller.setAttribute('aria-label', `Waveform of the ${label.toLowerCase()}: ${KEYS}`);
};

/** What the drawing reports back: whether it is drawn, playing, where, how long, and the selection. */
const useWaveformState = () => {
  const [drawProblem, setDrawProblem] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [selected, setSelected] = useState<{ start: number; end: number } | null>(null);
  /** Counts the spectrogram's and the ruler's redraws: each is placed on the view again after one. */
  const [redraws, setRedraws] = useState(0);
  return {
    drawProblem,
    setDrawProblem,
    ready,
    setReady,
    playing,
    setPlaying,
    time,
    setTime,
    duration,
    setDuration,
    selected,
    setSelected,
    redraws,
    redrawn: () => setRedraws((n) => n + 1),
  };
};

/**
 * The waveform, spectrogram and time axis over the page's own audio element, which streams the file in
 * byte ranges (so playing starts at once) while wavesurfer reads it whole to draw it. One selection at
 * a time: a new drag replaces the last.
 */
export const useWaveform = (url: string | null, el: PlayerElements, label: string, colours: ChartColours) => {
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<RegionsPlugin | null>(null);
  const selection = useRef<Region | null>(null);
  const s = useWaveformState();

  useEffect(() => {
    const media = el.audio.current;
    if (!url || !media || !el.wave.current || !el.spectro.current || !el.timeline.current) return;
    s.setReady(false);
    s.setDrawProblem(null);
    const reg = RegionsPlugin.create();
    const ruler = TimelinePlugin.create({
      container: el.timeline.current,
      height: 20,
      style: { color: colours.text, fontSize: '12px' },
    });
    const w = WaveSurfer.create({
      container: el.wave.current,
      media,
      height: WAVEFORM_HEIGHT_PX,
      ...waveColours(colours),
      cursorWidth: 2,
      sampleRate: 16_000,
      dragToSeek: false,
      plugins: [reg, ruler],
    });
    ws.current = w;
    regions.current = reg;
    makeScrollerFocusable(w, label);
    // Set after wavesurfer is made (it would load a source it finds), before it loads: it then keeps
    // this address for playing instead of a copy in memory.
    media.src = url;
    const unsubs = [
      w.on('decode', (d) => {
        s.setDuration(d);
        if (d <= SPECTROGRAM_MAX_SECONDS && el.spectro.current)
          addSpectrogram(w, el.spectro.current, s.redrawn);
      }),
      w.on('ready', (d) => {
        s.setDuration(d);
        s.setReady(true);
      }),
      w.on('error', (e) => {
        if (e.name === 'AbortError') return; // a load replaced by the next one
        s.setDrawProblem(
          'The waveform could not be drawn: this browser cannot decode the file. It may still play.',
        );
      }),
      w.on('timeupdate', (t) => s.setTime(t)),
      ruler.on('ready', s.redrawn),
      w.on('play', () => s.setPlaying(true)),
      w.on('pause', () => s.setPlaying(false)),
      w.on('finish', () => s.setPlaying(false)),
      reg.on('region-created', (r) => {
        if (r.id.startsWith('speech-')) return;
        if (selection.current && selection.current !== r) selection.current.remove();
        selection.current = r;
        r.element?.setAttribute('data-kind', 'selection');
        s.setSelected({ start: r.start, end: r.end });
      }),
      reg.on('region-updated', (r) => {
        if (r === selection.current) s.setSelected({ start: r.start, end: r.end });
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
      s.setSelected(null);
      s.setPlaying(false);
      media.removeAttribute('src');
      media.load();
    };
    // The theme's colours are applied below without reloading.
  }, [url]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    ws.current?.setOptions(waveColours(colours));
  }, [colours]);

  const clearSelection = () => {
    selection.current?.remove();
    selection.current = null;
    s.setSelected(null);
  };
  const playSelection = () => selection.current?.play(true);
  return { ws, regions, ...s, clearSelection, playSelection };
};
export type Waveform = ReturnType<typeof useWaveform>;

/** The speech the estimate found, shaded once the waveform is drawn. */
export const useSpeechShading = (wave: Waveform, speech: Speech | null, colour: string) => {
  const { ready, regions } = wave;
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
        color: colour,
      });
      r.element?.setAttribute('data-kind', 'speech');
      r.element?.setAttribute('data-start', String(g.start));
      r.element?.setAttribute('data-end', String(g.end));
    });
  }, [ready, speech, colour, regions]);
};
