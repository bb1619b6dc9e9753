/**
 * The endpoints of the specification, each a function of the client's context (client-exchange.ts):
 * ping, account creation (never repeated once it may have reached the service), the upload (its own
 * loop: a body streamed anew for each attempt, an uncertain outcome never repeated), an analysis and
 * the usage.
 */
import { apiError, type ApiError } from '../../shared/api/api-error';
import type { Account, RecordingAnalysis, UploadOutcome, Usage } from '../../shared/api/domain';
import { readAccount, readAnalysisAnswer, readReceipt, readUsage } from '../../shared/api/read/answers';
import { analysisTypesFor, type AnalysisType } from '../../shared/api/vocabulary';
import { err, ok, type Result } from '../../shared/result';
import { attemptOnce, call, emit, interpret, type ClientContext, type Reader } from './client-exchange';
import type { AccountCreation, AccountRequestError, UploadRequest } from './client-types';
import { decide, type AttemptFailure } from './retry-policy';
import { jsonUploadBody } from './upload-body';

const readPing: Reader<string> = (json) =>
  json !== null && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string'
    ? ok((json as { message: string }).message)
    : err({ path: 'message', detail: 'expected text' });

export const ping = async (cx: ClientContext): Promise<Result<string, ApiError>> => {
  const { result } = await call(cx, 'ping', 'GET', 'ping', readPing, { auth: false });
  return result;
};

export const createAccount = async (
  cx: ClientContext,
): Promise<Result<AccountCreation, AccountRequestError>> => {
  const { version } = cx;
  const { result, ambiguousRetries, outcomeUnknown } = await call(
    cx,
    'createAccount',
    'POST',
    'accounts',
    (json) => readAccount(version, json),
    { auth: true, ...(version === 'v1.2' ? { json: {} } : {}) },
  );
  if (!result.ok) return err({ ...result.error, outcomeUnknown });
  const account: Account = result.value;
  return ok({ account, uncertainAttempts: ambiguousRetries });
};

/** An upload refused before anything is sent: the key's address, or analysis types this version lacks. */
const uploadRefusedLocally = (cx: ClientContext, req: UploadRequest): UploadOutcome<ApiError> | null => {
  const { version } = cx;
  if (cx.keyRefused) return { status: 'rejected', attempts: 0, error: cx.keyRefused('upload') };
  const allowed = analysisTypesFor(version);
  const bad = req.analyses.find((t) => !allowed.includes(t));
  if (req.analyses.length === 0 || bad !== undefined) {
    return {
      status: 'rejected',
      attempts: 0,
      error: apiError('BadRequest', 'upload', {
        detail: bad ? `${bad} is not an analysis type of ${version}` : 'no analysis type requested',
      }),
    };
  }
  return null;
};

/** The upload's fields besides the audio. */
const uploadFields = (cx: ClientContext, req: UploadRequest): Record<string, unknown> => ({
  account_id: req.accountId,
  recorded_at: req.recordedAt,
  analysis: [...req.analyses],
  ...(cx.version === 'v1.3' && req.isolateOldestSpeaker !== undefined
    ? { isolate_oldest_speaker: req.isolateOldestSpeaker }
    : {}),
});

export const upload = async (cx: ClientContext, req: UploadRequest): Promise<UploadOutcome<ApiError>> => {
  const refused = uploadRefusedLocally(cx, req);
  if (refused) return refused;
  const { version, uploadTimeout } = cx;
  const fields = uploadFields(cx, req);
  const timeoutMs =
    uploadTimeout.baseMs + Math.ceil((req.audio.sizeBytes / uploadTimeout.minBytesPerSecond) * 1000);
  const previous: AttemptFailure[] = [];
  for (let attempt = 1; ; attempt++) {
    const body = jsonUploadBody(fields, req.audio);
    const startedAt = cx.now();
    const raw = await attemptOnce(cx, 'POST', 'recordings', { auth: true, upload: body, timeoutMs });
    const parsed = interpret(cx, 'upload', raw, (json, simulated) => readReceipt(version, json, simulated));
    emit(
      cx,
      'upload',
      'POST',
      'recordings',
      attempt,
      startedAt,
      raw,
      parsed.ok ? null : parsed.failure,
      body.bytesDelivered(),
    );
    if (parsed.ok) {
      const receipt = parsed.value;
      if (receipt) return { status: 'accepted', receipt, attempts: attempt };
      return {
        status: 'uncertain',
        attempts: attempt,
        reason: 'The service accepted the upload but did not say which recording it created.',
        error: apiError('InvalidResponse', 'upload', {
          status: 200,
          path: 'recording_id',
          detail: 'accepted without a recording_id',
        }),
      };
    }
    const decision = decide('upload', parsed.failure, { attempt, previous }, cx.retryCfg, cx.random);
    if (decision.action === 'uncertain') {
      return {
        status: 'uncertain',
        error: parsed.error,
        attempts: attempt,
        reason: uncertainReason(parsed.failure),
      };
    }
    if (decision.action === 'give_up') return { status: 'rejected', error: parsed.error, attempts: attempt };
    previous.push(parsed.failure);
    await cx.sleep(decision.delayMs);
  }
};

export const getAnalysis = async (
  cx: ClientContext,
  recordingId: string,
  types?: readonly AnalysisType[],
): Promise<Result<RecordingAnalysis, ApiError>> => {
  const query = types && types.length ? `?analysis=${types.map(encodeURIComponent).join(',')}` : '';
  const { result } = await call(
    cx,
    'getAnalysis',
    'GET',
    `recordings/${encodeURIComponent(recordingId)}/analysis${query}`,
    (json, simulatedHeader) =>
      readAnalysisAnswer(cx.version, json, { simulatedHeader, polledRecordingId: recordingId }),
    { auth: true },
  );
  return result;
};

export const getUsage = async (cx: ClientContext): Promise<Result<Usage, ApiError>> => {
  const { result } = await call(
    cx,
    'getUsage',
    'GET',
    'usage/recordings',
    (json) => readUsage(cx.version, json),
    {
      auth: true,
    },
  );
  return result;
};

const uncertainReason = (f: AttemptFailure): string => {
  switch (f.kind) {
    case 'timeout':
      return 'The upload was sent but no answer came back in time; the service may have accepted it.';
    case 'network':
      return 'The connection broke after the upload was sent; the service may have accepted it.';
    case 'status':
      return `The service failed (HTTP ${f.status}) after receiving the upload; it may have accepted it.`;
    case 'invalid_response':
      return 'The service answered the upload with something unreadable; it may have accepted it.';
  }
};
