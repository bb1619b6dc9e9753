/** Accounts kept when odd, usage flagged, and every error in words. */
import { describe, expect, it } from 'vitest';
import { apiError, bodyExcerpt, classifyHttpError } from '../../../shared/api/api-error';
import { explainApiError } from '../../../shared/api/api-error-explained';
import { readAccount, readErrorBody, readUsage } from '../../../shared/api/read/answers';

const ID = '7d9e6f5a-1b2c-4d3e-9f8a-7b6c5d4e3f2a';

describe('an account answer with an account_id is kept, whatever else is odd', () => {
  it.each(['v1.3', 'v1.2'] as const)('%s: organisation_role "admin" is kept and flagged', (v) => {
    const r = readAccount(v, { account_id: ID, organisation_role: 'admin', created: 'now' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.accountId).toBe(ID);
    expect(r.value.role).toBe('admin');
    expect(r.value.flags?.map((f) => f.code).sort()).toEqual(['role_not_in_enum', 'unknown_field']);
  });

  it('an id that is not a UUID is still the account (flagged); none at all is unreadable', () => {
    const r = readAccount('v1.3', { account_id: 'acc-17', organisation_role: 'speaker' });
    expect(r.ok && r.value.flags?.map((f) => f.code)).toEqual(['not_a_uuid']);
    expect(readAccount('v1.3', { organisation_role: 'speaker' }).ok).toBe(false);
    expect(readAccount('v1.3', [ID]).ok).toBe(false);
  });
});

describe('usage: odd credit balances are kept and flagged', () => {
  it('negative credits and more remaining than granted', () => {
    const r = readUsage('v1.3', {
      trial_remaining: -3,
      trial_granted: 10,
      included_remaining: 120,
      included_granted: 100,
      purchased_remaining: 5,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.uploadsRemaining).toBe(125);
    expect(r.value.flags?.map((f) => `${f.code}@${f.path}`).sort()).toEqual([
      'negative_credits@trial_remaining',
      'remaining_exceeds_granted@included_remaining',
    ]);
  });
});

describe('every error in words', () => {
  it('a 403 Suspended without its message is a suspension, not "Forbidden"', () => {
    const body = readErrorBody('{"error":{"type":"Suspended"}}');
    expect(body).toEqual({ type: 'Suspended', message: null });
    const kind = classifyHttpError(403, body.type, 'getAnalysis');
    expect(kind).toBe('Suspended');
    expect(explainApiError(apiError(kind, 'getAnalysis', { status: 403 })).summary).toMatch(/suspended/);
    expect(classifyHttpError(403, 'suspended', 'upload')).toBe('Suspended');
  });

  it('402 and 413 with an HTML body are explained in words', () => {
    expect(readErrorBody('<html><body>413 Request Entity Too Large</body></html>')).toEqual({
      type: null,
      message: null,
    });
    const tooLarge = explainApiError(
      apiError(classifyHttpError(413, null, 'upload'), 'upload', { status: 413 }),
    );
    expect(tooLarge.summary).toMatch(/50 MB/);
    const pay = explainApiError(apiError(classifyHttpError(402, null, 'upload'), 'upload', { status: 402 }));
    expect(pay.summary).toMatch(/payment/);
    expect(pay.summary).toMatch(/^[A-Z].*\.$/);
  });

  it('an unreadable answer keeps its start for the event log, never the key', () => {
    const e = bodyExcerpt(
      `<p>key sk-secret-123 Authorization: Bearer abc.def</p>${'x'.repeat(10_000)}`,
      'sk-secret-123',
    );
    expect(e).not.toContain('sk-secret-123');
    expect(e).not.toContain('abc.def');
    expect(e.length).toBeLessThan(4_200);
  });
});
