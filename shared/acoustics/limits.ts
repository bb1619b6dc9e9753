/**
 * Local measures at the edge of the pitch search: an F0 within 2 % of the search ceiling or floor is
 * most likely the search's limit rather than the voice (an octave jump, a creak or noise taken for
 * voicing), so it is flagged wherever it is shown. The measures and the pitch range are those of one
 * measurement (shared/acoustics/measures.ts).
 */
import { MEASURES, type MeasureKey } from './measures';

/** How near a limit counts as at it, as a share of the limit. */
export const NEAR_LIMIT_SHARE = 0.02;

export interface LimitFlag {
  readonly measure: MeasureKey;
  readonly limit: 'ceiling' | 'floor';
  readonly limitHz: number;
  /** The researcher's words: what was found and why it is doubtful. */
  readonly text: string;
}

const HIGH: readonly MeasureKey[] = ['f0_max_hz'];
const LOW: readonly MeasureKey[] = ['f0_min_hz'];

export const limitFlagsOf = (
  measures: Readonly<Record<string, number | null | undefined>>,
  floorHz: number | null,
  ceilingHz: number | null,
): LimitFlag[] => {
  const out: LimitFlag[] = [];
  for (const k of HIGH) {
    const v = measures[k];
    if (ceilingHz !== null && typeof v === 'number' && v >= ceilingHz * (1 - NEAR_LIMIT_SHARE))
      out.push({
        measure: k,
        limit: 'ceiling',
        limitHz: ceilingHz,
        text: `${MEASURES[k].label} is at the pitch search's ceiling (${ceilingHz} Hz): most likely the search's limit, not the voice`,
      });
  }
  for (const k of LOW) {
    const v = measures[k];
    if (floorHz !== null && typeof v === 'number' && v <= floorHz * (1 + NEAR_LIMIT_SHARE))
      out.push({
        measure: k,
        limit: 'floor',
        limitHz: floorHz,
        text: `${MEASURES[k].label} is at the pitch search's floor (${floorHz} Hz): most likely the search's limit, not the voice`,
      });
  }
  return out;
};
