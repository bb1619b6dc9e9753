/**
 * Loads the renderer's contract checks (contract-checks.ts: zod and every schema) as a module of their
 * own, once; for code on the first screen's path, which must not import them statically.
 */
import type { ContractChecks } from './contract-checks';

let loading: Promise<ContractChecks> | undefined;

export const loadContractChecks = (): Promise<ContractChecks> =>
  (loading ??= import('./contract-checks').then((m) => m.contractChecks));
