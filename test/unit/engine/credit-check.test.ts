import { describe, expect, it } from 'vitest';
import { usageToDomain } from '../../../shared/api/to-domain';
import { checkCredits } from '../../../main/engine/credit-check';

const v13 = (trial: number, included: number, purchased: number) =>
  usageToDomain('v1.3', {
    trial_remaining: trial,
    trial_granted: 10,
    included_remaining: included,
    included_granted: 100,
    purchased_remaining: purchased,
    tier: null,
  });

describe('credit check before a batch (trial, then included, then purchased)', () => {
  it('a batch within the trial credits empties nothing', () =>
    expect(checkCredits(v13(10, 100, 0), 5)).toMatchObject({
      shortBy: 0,
      emptiedBuckets: [],
      message: 'This batch uses 5 uploads of the 110 remaining.',
    }));

  it('warns which buckets a batch empties, in consumption order', () => {
    expect(checkCredits(v13(10, 100, 20), 10).emptiedBuckets).toEqual(['trial']);
    expect(checkCredits(v13(10, 100, 20), 115).emptiedBuckets).toEqual(['trial', 'included']);
    expect(checkCredits(v13(0, 100, 20), 115).emptiedBuckets).toEqual(['included']);
  });

  it('says what each emptied bucket holds: 11 uploads against a trial of 10 credits', () => {
    const c = checkCredits(v13(10, 100, 0), 11);
    expect(c.emptiedHold).toEqual([10]);
    expect(c.message).toBe(
      'This batch uses 11 uploads of the 110 remaining and empties the trial credits (the trial holds 10 credits).',
    );
    expect(checkCredits(v13(10, 100, 20), 115).message).toMatch(
      /empties the trial credits \(the trial holds 10 credits\), then the included credits of this period \(100 left\)\.$/,
    );
  });

  it('says how many files would wait when the credits run out', () => {
    const c = checkCredits(v13(2, 3, 0), 8);
    expect(c).toMatchObject({ uploadsRemaining: 5, shortBy: 3, emptiedBuckets: ['trial', 'included'] });
    expect(c.message).toBe(
      'This batch needs 8 uploads but only 5 remain; 3 files would wait until credits are added.',
    );
  });

  it('v1.2: the billing-period limit', () => {
    const u = usageToDomain('v1.2', { count: 95, limit: 100 });
    expect(checkCredits(u, 5)).toMatchObject({ shortBy: 0, emptiedBuckets: ['billing_period_limit'] });
    expect(checkCredits(u, 7).message).toMatch(
      /2 files would wait until credits are added or the billing period resets/,
    );
  });
});
