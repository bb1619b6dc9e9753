/**
 * The sandbox's four authenticated endpoints and ping, once a request has passed the pipeline
 * (pipeline.ts): each answers an outcome, a body to send or an error to render.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Endpoint } from '../../shared/api/api-error';
import {
  analysisTypesFor,
  AnalysisType as AnalysisTypeSchema,
  type AnalysisType,
  type ApiVersion,
} from '../../shared/api/vocabulary';
import { Uuid } from '../../shared/api/wire-common';
import type { Organisation, SandboxConfig } from './config';
import { chargeUpload, uploadRefusal } from './credits';
import {
  renderAccount,
  renderAnalysisV12,
  renderAnalysisV13,
  renderPing,
  renderRecording,
  renderUsageV12,
  renderUsageV13,
  type MeasureValues,
  type SimulationMark,
} from './render';
import type { FaultInjector } from './scenario';
import {
  lateCompletionMs,
  loosenAccount,
  loosenAnalysis,
  loosenReceipt,
  pollsFailForever,
} from './misbehave';
import { failsProcessing, simulateMeasures } from './simulate';
import type { RecordingRecord, SandboxState } from './state';
import { validateUpload } from './upload-validation';

/** What the endpoints work on: one per running sandbox. */
export interface SandboxWorld {
  readonly config: SandboxConfig;
  readonly now: () => number;
  readonly faults: FaultInjector;
  readonly state: SandboxState;
  readonly simulation: SimulationMark;
}

export interface Failure {
  readonly kind: 'error';
  readonly status: number;
  readonly type: string;
  readonly message: string;
  /** Misbehaviours (misbehave.ts) behind this failure, for the request log. */
  readonly misbehaved?: readonly string[];
}
interface Success {
  readonly kind: 'ok';
  readonly body: unknown;
  /** Misbehaviours (misbehave.ts) that changed this answer, for the request log. */
  readonly misbehaved?: readonly string[];
}
/** An answer that is not JSON at all (the misbehaving mode's unreadable account answer). */
export interface RawAnswer {
  readonly kind: 'raw';
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
  readonly misbehaved: readonly string[];
}
export type Outcome = Failure | Success | RawAnswer;

export const failure = (status: number, type: string, message: string): Failure => ({
  kind: 'error',
  status,
  type,
  message,
});
const success = (body: unknown, misbehaved: readonly string[] = []): Success => ({
  kind: 'ok',
  body,
  misbehaved,
});

const createAccount = (w: SandboxWorld, orgId: string, body: Buffer): Outcome => {
  const text = body.toString('utf8').trim();
  if (text.length) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return failure(
        400,
        'InvalidRequest',
        'The request body is not valid JSON; send no body (v1.3) or an empty JSON object (v1.2).',
      );
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      return failure(400, 'InvalidRequest', 'The request body must be an empty JSON object, or absent.');
    }
  }
  const sequence = w.state.countFor(orgId).accounts;
  const account = { id: randomUUID(), orgId, createdAt: w.now() };
  w.state.addAccount(account);
  const loose = loosenAccount(w.faults.current.misbehave, renderAccount(account), sequence);
  if (loose.kind === 'unreadable')
    return {
      kind: 'raw',
      status: 200,
      text: loose.text,
      contentType: 'application/json',
      misbehaved: loose.applied,
    };
  return success(loose.body, loose.applied);
};

const upload = async (
  w: SandboxWorld,
  version: ApiVersion,
  org: Organisation,
  req: http.IncomingMessage,
  body: Buffer,
): Promise<Outcome> => {
  const { config, faults, state } = w;
  const scenario = faults.current;
  const checked = await validateUpload({
    version,
    org,
    body,
    contentType: req.headers['content-type'],
    creditsPerUpload: config.creditsPerUpload,
    minSampleRateHz: scenario.minSampleRateHz,
    accountInOrg: (id) => state.account(id)?.orgId === org.id,
  });
  if (!checked.ok) return failure(checked.error.status, checked.error.type, checked.error.message);
  const u = checked.value;
  // Checked again at the moment of charging: concurrent uploads may have used the last credits meanwhile.
  const refusal = state.updateOrganisation(org.id, (o) => {
    const why = uploadRefusal(o, version, config.creditsPerUpload);
    if (why === null) chargeUpload(o, config.creditsPerUpload);
    return why;
  });
  if (refusal !== null) return failure(403, 'UploadLimitExceeded', refusal);
  const uploadedAt = w.now();
  const late = lateCompletionMs(scenario.misbehave, { audioSha256: u.audioSha256, recordedAt: u.recordedAt });
  const rec: RecordingRecord = {
    id: randomUUID(),
    orgId: org.id,
    accountId: u.accountId,
    recordedAt: u.recordedAt,
    uploadedAt,
    uploadVersion: version,
    audioSha256: u.audioSha256,
    submitted: u.submitted,
    reported: u.reported,
    isolateOldestSpeaker: u.isolateOldestSpeaker,
    requested: [...u.analyses],
    types: Object.fromEntries(
      u.analyses.map((type) => [
        type,
        {
          dueAt: uploadedAt + (late ?? faults.processingMs(type)),
          outcome: failsProcessing({
            audioSha256: u.audioSha256,
            type,
            failureRate: faults.failureRate(type),
          })
            ? 'error'
            : 'completed',
          settled: false,
        },
      ]),
    ),
  };
  state.addRecording(rec);
  const loose = loosenReceipt(scenario.misbehave, renderRecording(rec, w.simulation));
  return success(loose.body, late !== null ? [...loose.applied, 'late_completions'] : loose.applied);
};

const valuesOf =
  (rec: RecordingRecord) =>
  (type: AnalysisType): MeasureValues =>
    simulateMeasures({
      accountId: rec.accountId,
      audioSha256: rec.audioSha256,
      type,
      speechSeconds: rec.reported.speechSeconds,
      durationSeconds: rec.reported.durationSeconds,
      recordedAt: rec.recordedAt,
    });

/** The analysis types the `analysis` query parameter asks for (null: all), or why it cannot be read. */
const requestedTypes = (
  version: ApiVersion,
  query: URLSearchParams,
): { ok: true; types: AnalysisType[] | null } | { ok: false; failure: Failure } => {
  const allowed = analysisTypesFor(version);
  const filter = query.getAll('analysis');
  if (!filter.length) return { ok: true, types: null };
  const names = filter
    .flatMap((f) => f.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const n of names) {
    if (!AnalysisTypeSchema.safeParse(n).success || !allowed.includes(n as AnalysisType)) {
      return {
        ok: false,
        failure: failure(
          400,
          'InvalidRequest',
          `The query parameter "analysis" names "${n.slice(0, 60)}", which is not an analysis type of ${version} (use ${allowed.join(', ')}).`,
        ),
      };
    }
  }
  return { ok: true, types: names.length ? [...new Set(names as AnalysisType[])] : null };
};

const getAnalysis = (
  w: SandboxWorld,
  version: ApiVersion,
  org: Organisation,
  recordingId: string,
  query: URLSearchParams,
): Outcome => {
  if (!Uuid.safeParse(recordingId).success) {
    return failure(400, 'InvalidRequest', `The recording id "${recordingId.slice(0, 80)}" is not a UUID.`);
  }
  const requested = requestedTypes(version, query);
  if (!requested.ok) return requested.failure;
  const rec = w.state.recording(recordingId);
  if (!rec || rec.orgId !== org.id)
    return failure(404, 'RecordingNotFound', `No recording ${recordingId} exists in this organisation.`);
  const misbehave = w.faults.current.misbehave;
  if (pollsFailForever(misbehave, rec))
    return {
      ...failure(503, 'ServiceUnavailable', 'The analysis of this recording cannot be read at the moment.'),
      misbehaved: ['failing_polls'],
    };
  // Every type of the version, requested or not: an unrequested one is `{"status":"not_requested"}`.
  const shown = requested.types ?? analysisTypesFor(version);
  const at = w.now();
  const input = {
    recording: rec,
    types: shown,
    statusOf: (t: AnalysisType) => w.state.statusOf(rec, t, at),
    valuesOf: valuesOf(rec),
    simulation: w.simulation,
  };
  const body = version === 'v1.3' ? renderAnalysisV13(input) : renderAnalysisV12(input);
  const notRequested = shown.filter((t) => !rec.requested.includes(t));
  const loose = loosenAnalysis(misbehave, version, body, rec, notRequested);
  return success(loose.body, loose.applied);
};

/** What a request to an endpoint carries, once routed, authenticated and read. */
export interface EndpointRequest {
  readonly version: ApiVersion;
  readonly endpoint: Endpoint;
  readonly org: Organisation | null;
  readonly recordingId: string | null;
  readonly req: http.IncomingMessage;
  readonly query: URLSearchParams;
  readonly body: Buffer;
}

export const dispatch = async (w: SandboxWorld, r: EndpointRequest): Promise<Outcome> => {
  const { version, endpoint, org } = r;
  if (endpoint === 'ping') return success(renderPing());
  if (org === null) throw new Error('an authenticated endpoint without an organisation');
  switch (endpoint) {
    case 'createAccount':
      return createAccount(w, org.id, r.body);
    case 'upload':
      return upload(w, version, org, r.req, r.body);
    case 'getAnalysis':
      return getAnalysis(w, version, org, r.recordingId ?? '', r.query);
    case 'getUsage':
      return success(version === 'v1.3' ? renderUsageV13(org.credits) : renderUsageV12(org));
  }
};
