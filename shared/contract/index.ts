/**
 * The one IPC contract: every procedure (dotted name → input and output schemas) and every pushed
 * event. The main process parses each input before a service runs and each output before it is
 * sent; the renderer parses each input before sending and each answer on arrival.
 */
import type { z } from 'zod';
import type { AppError, EventDef, Procedure } from '../rpc';
import { acousticsContract, acousticsEvents } from './acoustics.contract';
import { appContract } from './app.contract';
import { auditContract } from './audit.contract';
import { batchesContract } from './batches.contract';
import { curationContract } from './curation.contract';
import { cohortContract } from './cohort.contract';
import { ENGINE_EVENT_AFFECTS, eventsContract } from './events.contract';
import { exportEvents, exportsContract } from './exports.contract';
import { filesContract } from './files.contract';
import { importsContract } from './imports.contract';
import { participantsContract } from './participants.contract';
import { privacyContract } from './privacy.contract';
import { profilesContract } from './profiles.contract';
import { queueContract } from './queue.contract';
import { recordingsContract } from './recordings.contract';
import { reliabilityContract } from './reliability.contract';
import { sandboxContract } from './sandbox.contract';
import { settingsContract } from './settings.contract';
import { studiesContract } from './studies.contract';
import { teamContract } from './team.contract';
import { timelineContract } from './timeline.contract';
import { usageContract } from './usage.contract';
import { visitsContract } from './visits.contract';

export const procedures = {
  ...appContract,
  ...acousticsContract,
  ...profilesContract,
  ...studiesContract,
  ...participantsContract,
  ...recordingsContract,
  ...filesContract,
  ...importsContract,
  ...batchesContract,
  ...queueContract,
  ...timelineContract,
  ...reliabilityContract,
  ...usageContract,
  ...settingsContract,
  ...sandboxContract,
  ...privacyContract,
  ...auditContract,
  ...exportsContract,
  ...visitsContract,
  ...curationContract,
  ...cohortContract,
  ...teamContract,
} as const satisfies Record<string, Procedure>;

export const events = { ...eventsContract, ...exportEvents, ...acousticsEvents } as const satisfies Record<
  string,
  EventDef
>;

export type Procedures = typeof procedures;
export type Method = keyof Procedures;
export type Input<M extends Method> = z.input<Procedures[M]['input']>;
/** The input after parsing (defaults applied), as handlers receive it. */
export type ParsedInput<M extends Method> = z.output<Procedures[M]['input']>;
export type Output<M extends Method> = z.output<Procedures[M]['output']>;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]['payload']>;

export type CallResult<M extends Method> =
  { readonly ok: true; readonly value: Output<M> } | { readonly ok: false; readonly error: AppError };

/** A namespace of the contract: the part of a method's name before the dot (`batches` of `batches.get`). */
type NamespaceOf<M> = M extends `${infer N}.${string}` ? N : never;
export type Namespace = NamespaceOf<Method>;
/** What an action may say it affects: one procedure, or every procedure of a namespace. */
export type Target = Method | Namespace;
/** The methods declared as actions (Procedure.affects present, even if empty). */
export type ActionMethod = {
  [M in Method]: Procedures[M] extends { readonly affects: readonly string[] } ? M : never;
}[Method];

type DeclaredTargets =
  | { [M in Method]: Procedures[M] extends { readonly affects: readonly (infer T)[] } ? T : never }[Method]
  | (typeof ENGINE_EVENT_AFFECTS)[keyof typeof ENGINE_EVENT_AFFECTS][number];
type UnknownTargets = Exclude<DeclaredTargets, Target>;
/**
 * Compile-time: every name an action or an engine event declares it affects is a procedure or a
 * namespace of this contract. A misspelt one fails here, and the error names it.
 */
export const AFFECTS_NAME_THE_CONTRACT: [UnknownTargets] extends [never] ? true : UnknownTargets = true;

/** What a successful call of `method` may change (nothing for a read). */
export const affectsOf = (method: Method): readonly Target[] =>
  ((procedures[method] as Procedure).affects ?? []) as readonly Target[];
/** True for an action (a procedure that declares what it affects), false for a read. */
export const isAction = (method: Method): boolean => (procedures[method] as Procedure).affects !== undefined;
/** What an engine event of this type may change. */
export const engineEventAffects = (type: keyof typeof ENGINE_EVENT_AFFECTS): readonly Target[] =>
  ENGINE_EVENT_AFFECTS[type];
/** True when a query of `method` shows what `target` names. */
export const targets = (target: Target, method: string): boolean =>
  method === target || method.startsWith(`${target}.`);

export const isMethod = (m: unknown): m is Method => typeof m === 'string' && Object.hasOwn(procedures, m);
export const isEventName = (e: unknown): e is EventName => typeof e === 'string' && Object.hasOwn(events, e);
