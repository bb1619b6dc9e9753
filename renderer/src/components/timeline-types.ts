/**
 * What a timeline chart is drawn from: a series, a session, a point and a change, as the timeline answer gives them.
 */
import { type Timeline } from '../../../shared/contract/timeline.contract';

export type ChartSeries = Timeline['measures'][number]['series'][number];
export type ChartSession = Timeline['sessions'][number];
export type ChartPoint = ChartSeries['points'][number];
export type ChangeView = NonNullable<ChartSeries['change']>;
