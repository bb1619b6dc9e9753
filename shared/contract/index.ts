/**
 * The one IPC contract: every procedure (dotted name → input and output schemas) and every pushed
 * event. The main process parses each input before a service runs and each output before it is
 * sent; the renderer parses each input before sending and each answer on arrival.
 */
import type { z } from 'zod';
import type { AppError, EventDef, Procedure } from '../rpc';
import { appContract } from './app.contract';
import { batchesContract } from './batches.contract';
import { eventsContract } from './events.contract';
import { exportEvents, exportsContract } from './exports.contract';
import { filesContract, importsContract } from './imports.contract';
import { participantsContract } from './participants.contract';
import { privacyContract } from './privacy.contract';
import { profilesContract } from './profiles.contract';
import { recordingDetailContract } from './recording-detail.contract';
import { recordingsContract } from './recordings.contract';
import { settingsContract } from './settings.contract';
import { studiesContract } from './studies.contract';
import { timelineContract } from './timeline.contract';
import { usageContract } from './usage.contract';

export const procedures = {
  ...appContract,
  ...profilesContract,
  ...studiesContract,
  ...participantsContract,
  ...recordingsContract,
  ...recordingDetailContract,
  ...filesContract,
  ...importsContract,
  ...batchesContract,
  ...timelineContract,
  ...usageContract,
  ...settingsContract,
  ...privacyContract,
  ...exportsContract,
} as const satisfies Record<string, Procedure>;

export const events = { ...eventsContract, ...exportEvents } as const satisfies Record<string, EventDef>;

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

export const isMethod = (m: unknown): m is Method => typeof m === 'string' && Object.hasOwn(procedures, m);
export const isEventName = (e: unknown): e is EventName => typeof e === 'string' && Object.hasOwn(events, e);
