/**
 * Upload gating and charging (spec: Limits, "Credits" and "Upload count per billing period";
 * docs/spec-decisions.md). v1.3 needs `creditsPerUpload` credits across the buckets; v1.2 needs
 * `count < limit`. An accepted upload through either version consumes credits (trial, then included,
 * then purchased; never below zero) and increments the v1.2 count: one ledger for both versions.
 */
import type { ApiVersion } from '../../shared/api/vocabulary';
import type { CreditBuckets, Organisation } from './config';

export const totalCredits = (c: CreditBuckets): number =>
  c.trial_remaining + c.included_remaining + c.purchased_remaining;

/** Null when the organisation may upload through `version`, else the refusal's message. */
export const uploadRefusal = (
  org: Organisation,
  version: ApiVersion,
  creditsPerUpload: number,
): string | null => {
  if (version === 'v1.3') {
    const total = totalCredits(org.credits);
    if (total < creditsPerUpload) {
      return `The organisation's credit balance is exhausted: ${total} credit${total === 1 ? '' : 's'} remaining, an upload needs ${creditsPerUpload}.`;
    }
    return null;
  }
  if (org.v12.count >= org.v12.limit) {
    return `The organisation has used all ${org.v12.limit} uploads of the current billing period.`;
  }
  return null;
};

/** Consumes up to `credits` from trial, then included, then purchased, and counts the upload. Mutates `org`. */
export const chargeUpload = (org: Organisation, credits: number): void => {
  let left = credits;
  for (const bucket of ['trial_remaining', 'included_remaining', 'purchased_remaining'] as const) {
    const take = Math.min(left, org.credits[bucket]);
    org.credits[bucket] -= take;
    left -= take;
  }
  org.v12.count += 1;
};
