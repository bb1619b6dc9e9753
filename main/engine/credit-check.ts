/**
 * Before a batch: what it will cost against the usage the service reports. v1.3 consumes trial, then
 * included, then purchased credits (spec: Limits, "Credits"), read as one credit per upload (the spec
 * does not say; docs/spec-decisions.md); v1.2 counts uploads against `limit`. The researcher is warned
 * before a batch would empty a bucket, and told how many files would be left waiting if it runs out.
 */
import type { Usage } from '../../shared/api/domain';
import { emptiedInWords } from '../../shared/credits';

export interface CreditCheck {
  readonly uploadsPlanned: number;
  readonly uploadsRemaining: number;
  /** Files that would be refused for lack of credits (UploadLimitExceeded) and wait in the queue. */
  readonly shortBy: number;
  /** Buckets this batch would empty, in the order they are consumed. */
  readonly emptiedBuckets: readonly ('trial' | 'included' | 'purchased' | 'billing_period_limit')[];
  /** What each emptied bucket holds now (credits, or uploads left in the billing period), in the same order. */
  readonly emptiedHold: readonly number[];
  readonly message: string;
}

export const checkCredits = (usage: Usage, uploadsPlanned: number): CreditCheck => {
  const shortBy = Math.max(0, uploadsPlanned - usage.uploadsRemaining);
  const emptied: CreditCheck['emptiedBuckets'][number][] = [];
  const hold: number[] = [];
  const d = usage.detail;
  if (d.kind === 'credits') {
    let left = uploadsPlanned;
    for (const [name, have] of [
      ['trial', d.trialRemaining],
      ['included', d.includedRemaining],
      ['purchased', d.purchasedRemaining],
    ] as const) {
      if (left <= 0) break;
      if (have > 0 && left >= have) {
        emptied.push(name);
        hold.push(have);
      }
      left -= Math.max(0, have);
    }
  } else if (uploadsPlanned >= usage.uploadsRemaining && usage.uploadsRemaining >= 0 && uploadsPlanned > 0) {
    emptied.push('billing_period_limit');
    hold.push(usage.uploadsRemaining);
  }
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const message =
    shortBy > 0
      ? `This batch needs ${plural(uploadsPlanned, 'upload')} but only ${usage.uploadsRemaining} remain; ${plural(shortBy, 'file')} would wait until credits are added${d.kind === 'upload_count' ? ' or the billing period resets' : ''}.`
      : emptied.length > 0
        ? `This batch uses ${plural(uploadsPlanned, 'upload')} of the ${usage.uploadsRemaining} remaining and empties ${emptiedInWords(emptied, hold)}.`
        : `This batch uses ${plural(uploadsPlanned, 'upload')} of the ${usage.uploadsRemaining} remaining.`;
  return {
    uploadsPlanned,
    uploadsRemaining: usage.uploadsRemaining,
    shortBy,
    emptiedBuckets: emptied,
    emptiedHold: hold,
    message,
  };
};
