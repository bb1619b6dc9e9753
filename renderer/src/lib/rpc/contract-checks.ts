/**
 * The contract as the renderer checks it: every procedure's and event's schema (zod), and what each
 * action and engine event affects. This module and zod are the largest part of the window's code and
 * take longest to start (hundreds of schemas built as the module runs), so it is loaded after the
 * first screen has drawn (contract-loader.ts), not with the window's first scripts.
 */
import {
  affectsOf,
  engineEventAffects,
  events,
  isEventName,
  procedures,
  targets,
} from '../../../../shared/contract';
import { EnvelopeShape, validationError } from '../../../../shared/rpc';

export const contractChecks = {
  procedures,
  events,
  isEventName,
  EnvelopeShape,
  validationError,
  affectsOf,
  engineEventAffects,
  targets,
};
export type ContractChecks = typeof contractChecks;
