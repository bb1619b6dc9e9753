/**
 * A refusal, in the researcher's words: what the services return instead of throwing, and what the
 * modules below them (curation's recorder, for one) return so the services can pass it on unchanged.
 */
import type { ApiError } from '../shared/api/api-error';
import { explainApiError } from '../shared/api/api-error-explained';

/** A refusal of the service layer, in the researcher's words. */
export interface ServiceProblem {
  readonly message: string;
  readonly action: string;
  readonly apiError?: ApiError;
}

export const problem = (message: string, action: string): ServiceProblem => ({ message, action });

export const fromApi = (e: ApiError): ServiceProblem => {
  const x = explainApiError(e);
  return { message: x.summary, action: x.action, apiError: e };
};
