import { describe, expect, it } from 'vitest';
import { API_ERROR_KINDS, apiError, classifyHttpError } from '../../../shared/api/api-error';
import { explainApiError } from '../../../shared/api/api-error-explained';

describe('researcher-facing explanations', () => {
  it('every error kind says what happened and what to do, in sentences', () => {
    for (const kind of API_ERROR_KINDS) {
      const e = explainApiError(apiError(kind, 'upload'));
      expect(e.summary, kind).toMatch(/^[A-Z].*\.$/);
      expect(e.action, kind).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('an unreadable answer names where it broke', () =>
    expect(
      explainApiError(
        apiError('InvalidResponse', 'getAnalysis', { path: 'analysis.parkinsons.indicators.hnr' }),
      ).summary,
    ).toContain('(at analysis.parkinsons.indicators.hnr)'));

  it('named types decide the kind whatever the status; 429 and 5xx decide before them', () => {
    expect(classifyHttpError(402, 'UploadLimitExceeded', 'upload')).toBe('UploadLimitExceeded');
    expect(classifyHttpError(429, 'Suspended', 'upload')).toBe('RateLimited');
    expect(classifyHttpError(503, 'Suspended', 'getUsage')).toBe('ServerError');
    expect(classifyHttpError(403, 'Whatever', 'getUsage')).toBe('Forbidden');
    expect(classifyHttpError(403, null, 'upload')).toBe('AnalysisNotEnabled');
  });
});
