/** "Save as SVG" and "Save as PNG" under a chart: the chart's PlotModel, built when asked. */
import { useState } from 'react';
import { saveChartPng, saveChartSvg } from './chart-export';
import type { PlotModel } from './chart-svg';

export const SaveChart = ({ what, model }: { what: string; model: () => PlotModel }) => {
  const [busy, setBusy] = useState(false);
  return (
    <div className="save-chart" role="group" aria-label={`Save the chart of ${what}`}>
      <button type="button" className="small-button" onClick={() => saveChartSvg(model())}>
        Save as SVG
      </button>
      <button
        type="button"
        className="small-button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void saveChartPng(model()).finally(() => setBusy(false));
        }}
      >
        Save as PNG
      </button>
    </div>
  );
};
