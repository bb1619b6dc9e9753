/**
 * The contract's method names without its schemas: what the preload script needs to refuse anything
 * else, without bundling zod and every schema into it. The check at the end keeps this list and the
 * contract identical: a method added to one and not the other fails to compile.
 */
import type { Method } from './index';

export const METHOD_NAMES = [
  'acoustics.planQuality',
  'acoustics.recording',
  'app.info',
  'audit.list',
  'audit.verify',
  'batches.cancel',
  'batches.credits',
  'batches.get',
  'batches.list',
  'batches.pause',
  'batches.receiptDifferences',
  'batches.resume',
  'batches.start',
  'exports.cancel',
  'exports.options',
  'exports.run',
  'exports.unknownCodes',
  'files.list',
  'files.manifestTemplate',
  'files.pick',
  'imports.commit',
  'imports.creditEstimate',
  'imports.discard',
  'imports.planFiles',
  'imports.preview',
  'participants.create',
  'participants.createAccounts',
  'participants.get',
  'participants.linkAccount',
  'participants.page',
  'participants.rename',
  'participants.resolveUncertainAccount',
  'participants.setNotes',
  'participants.uncertainAccounts',
  'privacy.setDiagnostic',
  'privacy.settings',
  'profiles.create',
  'profiles.list',
  'profiles.removeKey',
  'profiles.replaceKey',
  'profiles.test',
  'profiles.testDraft',
  'profiles.useSandbox',
  'queue.pause',
  'queue.resume',
  'queue.state',
  'recordings.detail',
  'recordings.insistDuplicate',
  'recordings.page',
  'recordings.resolveUncertain',
  'recordings.retry',
  'recordings.retryable',
  'recordings.rows',
  'recordings.uncertain',
  'sandbox.setMisbehaviours',
  'sandbox.setScenario',
  'sandbox.state',
  'settings.get',
  'settings.save',
  'studies.archive',
  'studies.create',
  'studies.dataSummary',
  'studies.delete',
  'studies.get',
  'studies.list',
  'studies.update',
  'timeline.participant',
  'usage.overview',
  'usage.read',
] as const;

export type MethodName = (typeof METHOD_NAMES)[number];

export const isMethodName = (m: unknown): m is MethodName =>
  typeof m === 'string' && (METHOD_NAMES as readonly string[]).includes(m);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const METHOD_NAMES_MATCH_CONTRACT: Same<MethodName, Method> = true;
