/** Local F0 values at the pitch search's ceiling or floor are flagged, those inside it are not. */
import { describe, expect, it } from 'vitest';
import { limitFlagsOf } from '../../../shared/acoustics/limits';

describe('local measures at the search limits', () => {
  it('flags a maximum F0 of 497.95 Hz under a 500 Hz ceiling beside a median of 106 Hz', () => {
    expect(limitFlagsOf({ f0_max_hz: 497.95, f0_median_hz: 106, f0_min_hz: 80 }, 75, 500)).toEqual([
      {
        measure: 'f0_max_hz',
        limit: 'ceiling',
        limitHz: 500,
        text: "Maximum F0 is at the pitch search's ceiling (500 Hz): most likely the search's limit, not the voice",
      },
    ]);
  });

  it('flags a minimum F0 at the floor', () => {
    expect(
      limitFlagsOf({ f0_max_hz: 240, f0_min_hz: 75.4 }, 75, 500).map((f) => [f.measure, f.limit]),
    ).toEqual([['f0_min_hz', 'floor']]);
  });

  it('flags nothing inside the range, nor without a range or a value', () => {
    expect(limitFlagsOf({ f0_max_hz: 480, f0_min_hz: 80 }, 75, 500)).toEqual([]);
    expect(limitFlagsOf({ f0_max_hz: 499, f0_min_hz: 75 }, null, null)).toEqual([]);
    expect(limitFlagsOf({ f0_max_hz: null, f0_min_hz: null }, 75, 500)).toEqual([]);
  });
});
