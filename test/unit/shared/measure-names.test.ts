/**
 * A researcher tells every measure apart by its name: the timeline's picker, chart titles and values
 * table, and the exports' column titles never show two measures under one name (the service's
 * "Harmonics-to-noise ratio" and the one computed here were both called so).
 */
import { describe, expect, it } from 'vitest';
import { CHART_MEASURES, chartMeasure, LOCAL_ANALYSIS } from '../../../shared/timeline-measures';
import { localMeasureColumns } from '../../../main/export/local-columns';

describe('measure names', () => {
  it('of the measures computed here are none of the service’s', () => {
    const service = new Set(CHART_MEASURES.filter((m) => m.analysis !== LOCAL_ANALYSIS).map((m) => m.label));
    const local = CHART_MEASURES.filter((m) => m.analysis === LOCAL_ANALYSIS);
    expect(local.length).toBeGreaterThan(0);
    expect(local.filter((m) => service.has(m.label)).map((m) => m.key)).toEqual([]);
  });

  it('say when a measure was computed here', () => {
    expect(chartMeasure('pd_hnr')?.label).toBe('Harmonics-to-noise ratio');
    expect(chartMeasure('lm_hnr_db')?.label).toBe('Harmonics-to-noise ratio, computed here');
  });

  it('are the exports’ column titles of the measures computed here', () => {
    const hnr = localMeasureColumns().find((c) => c.name === 'lm_hnr_db');
    expect(hnr?.title).toBe('Harmonics-to-noise ratio, computed here');
  });
});
