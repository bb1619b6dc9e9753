/**
 * Saving a chart: the SVG document of chart-svg.ts as a .svg file, and the same drawn on a
 * canvas at twice its size as a .png file. Both are made in the window and handed to the browser's
 * download (nothing leaves the computer); the file name says what the chart shows.
 */
import { plotSvg, type PlotModel } from './chart-svg';

/** A file name from a chart's title: letters, digits, dashes. */
export const chartFileName = (title: string, ext: 'svg' | 'png') =>
  `${
    title
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || 'chart'
  }.${ext}`;

const download = (blob: Blob, name: string) => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

export const saveChartSvg = (m: PlotModel): void =>
  download(new Blob([plotSvg(m)], { type: 'image/svg+xml' }), chartFileName(m.title, 'svg'));

/** Draws the SVG on a canvas (a data: image, which the window's Content Security Policy allows) and saves it as PNG. */
export const saveChartPng = async (m: PlotModel, scale = 2): Promise<void> => {
  const svg = plotSvg(m);
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth * scale;
  canvas.height = img.naturalHeight * scale;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(scale, scale);
  ctx.drawImage(img, 0, 0);
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
  if (blob) download(blob, chartFileName(m.title, 'png'));
};
