/** A recording dated after the participant's withdrawal is flagged; one on the day itself or before is not. */
import { describe, expect, it } from 'vitest';
import { recordedAfterWithdrawal } from '../../../shared/withdrawal';

describe('data after a withdrawal', () => {
  const withdrawn = { status: 'withdrawn' as const, statusOn: '2024-03-14' };

  it('flags a recording dated after the withdrawal', () => {
    expect(recordedAfterWithdrawal('2024-03-15', withdrawn)).toBe(true);
    expect(recordedAfterWithdrawal('2024-04-02', withdrawn)).toBe(true);
  });

  it('does not flag one on the day of the withdrawal or before it', () => {
    expect(recordedAfterWithdrawal('2024-03-14', withdrawn)).toBe(false);
    expect(recordedAfterWithdrawal('2024-02-01', withdrawn)).toBe(false);
  });

  it('does not flag anything for a participant who is not withdrawn, or without a date', () => {
    expect(recordedAfterWithdrawal('2024-04-02', { status: 'active', statusOn: '2024-03-14' })).toBe(false);
    expect(recordedAfterWithdrawal('2024-04-02', { status: 'completed', statusOn: '2024-03-14' })).toBe(
      false,
    );
    expect(recordedAfterWithdrawal('2024-04-02', { status: 'withdrawn', statusOn: null })).toBe(false);
  });
});
