/**
 * Chart colours from the theme's CSS variables, read when the theme changes (the researcher's switch
 * sets data-theme; "system" follows prefers-color-scheme), so canvas charts match light and dark.
 */
import { useEffect, useState } from 'react';

export interface ChartColours {
  readonly text: string;
  readonly muted: string;
  readonly grid: string;
  readonly panel: string;
  /** One colour per API version's series: v1.3 and v1.2 are never drawn alike. */
  readonly v13: string;
  readonly v12: string;
  readonly band: string;
  readonly marker: string;
  /** The ring around a value flagged as departing from the specification. */
  readonly flag: string;
}

const read = (): ChartColours => {
  const s = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => s.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text', '#17202b'),
    muted: v('--muted', '#556171'),
    grid: v('--border', '#cfd6df'),
    panel: v('--panel', '#ffffff'),
    v13: v('--chart-v13', '#1f5fbf'),
    v12: v('--chart-v12', '#0f766e'),
    band: v('--chart-band', 'rgb(31 95 191 / 14%)'),
    marker: v('--chart-marker', '#8a5300'),
    flag: v('--chart-flag', '#b42318'),
  };
};

export const useChartColours = (): ChartColours => {
  const [colours, setColours] = useState(read);
  useEffect(() => {
    const update = () =>
      setColours((c) => {
        const n = read();
        return JSON.stringify(n) === JSON.stringify(c) ? c : n;
      });
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const media = matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', update);
    return () => {
      observer.disconnect();
      media.removeEventListener('change', update);
    };
  }, []);
  return colours;
};
