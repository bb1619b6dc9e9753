/**
 * What every curation act of the curation services is written with: the study database, the clock,
 * the recorder (main/curation/recorder.ts: the reason checked, the act and its audit entry in one
 * transaction) and the engine, woken when an act may have given it uploads to send.
 */
import type { CurationActKind, CurationDone } from '../../../shared/curation';
import { err, ok, type Result } from '../../../shared/result';
import { UPLOAD_STATES_SENT } from '../../../shared/states';
import { curationRecorder } from '../../curation/recorder';
import type { Store } from '../../db/store/types';
import type { Engine } from '../engine.service';
import { problem, type ServiceContext, type ServiceProblem } from '../service-context';

export interface ActContext {
  readonly store: Store;
  /** The clock as ISO 8601. */
  readonly iso: () => string;
  readonly cleanReason: ReturnType<typeof curationRecorder>['cleanReason'];
  readonly record: ReturnType<typeof curationRecorder>['record'];
  readonly recordIn: ReturnType<typeof curationRecorder>['recordIn'];
  /** Wakes the engine (an act moved recordings or gave it something to send). */
  readonly wake: () => void;
}

export const actContext = (ctx: ServiceContext, engine: Engine): ActContext => {
  const { cleanReason, record, recordIn } = curationRecorder(ctx);
  return {
    store: ctx.store,
    iso: ctx.iso,
    cleanReason,
    record,
    recordIn,
    wake: () => engine.service.wake(),
  };
};

/** What an act answers: the act's id and a warning, or a refusal in the researcher's words. */
export type ActResult = Promise<Result<CurationDone, ServiceProblem>>;

/** Upload states in which something of the recording may have reached the service. */
export const SENT_STATES = new Set<string>(UPLOAD_STATES_SENT);

export const NO_RECORDING = problem(
  'There is no such recording.',
  'Check the recording number (voicescope status lists them).',
);

/** What every undo of a recording act writes besides its before and after. */
export interface UndoBase {
  readonly studyId: number;
  readonly act: 'undo';
  readonly recordingId: number;
  readonly reason: string | null;
  readonly undoes: number;
  readonly undone: CurationActKind;
}

/** An undo's refusal when the recording is no longer as the act left it. */
export const RECORDING_CHANGED = problem(
  'The recording has changed since this act, so undoing it would overwrite a later change.',
  'Undo the later acts first (newest first), or make the change you want as a new act.',
);

/** The act's reason, checked and required: without one, `missing` says what to write. */
export const requiredReason = (
  c: ActContext,
  reasonIn: string,
  missing: ServiceProblem,
): Result<string, ServiceProblem> => {
  const reason = c.cleanReason(reasonIn);
  if (!reason.ok) return reason;
  return reason.value === null ? err(missing) : ok(reason.value);
};
