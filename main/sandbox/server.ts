/**
 * The sandbox service: a local HTTP server (node:http, bound to 127.0.0.1 only) that implements the
 * Speech Analysis specification in both versions, with simulated results that are always marked as
 * such (`X-Voicescope-Simulated: 1` on every answer, `simulation` in upload and analysis answers).
 *
 * A request goes: route (404, 405) → authentication and access, decided from the headers → the body,
 * buffered under its size cap only when authenticated (413 at once past the cap), else read and
 * dropped → latency → an injected 500 or dropped connection → the 401 or 403 decided earlier → 429 →
 * the endpoint → for an accepted upload, perhaps a dropped connection after it was stored and charged
 * → perhaps an answer that breaks the schema.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { Endpoint } from '../../shared/api/api-error';
import {
  analysisTypesFor,
  AnalysisType as AnalysisTypeSchema,
  LIMITS,
  type AnalysisType,
  type ApiVersion,
} from '../../shared/api/vocabulary';
import { Uuid } from '../../shared/api/wire-common';
import { handleAdmin } from './admin';
import {
  DEFAULT_CONFIG,
  Organisation,
  resolveScenario,
  SandboxConfig,
  type OrganisationInput,
  type SandboxConfigInput,
} from './config';
import { chargeUpload, uploadRefusal } from './credits';
import { discardBody, readBody, sendJson, sendText } from './http-io';
import { RateLimiter } from './rate-limit';
import {
  renderAccount,
  renderAnalysisV12,
  renderAnalysisV13,
  renderError,
  renderPing,
  renderRecording,
  renderUsageV12,
  renderUsageV13,
  type MeasureValues,
  type SimulationMark,
} from './render';
import { matchRoute } from './routes';
import { FaultInjector, type Scenario, type ScenarioName, type ScenarioPatch } from './scenario';
import { breakAnswer, schemaFor } from './schema-break';
import { failsProcessing, simulateMeasures, SIMULATOR_VERSION } from './simulate';
import { SandboxState, type RecordingRecord } from './state';
import { validateUpload } from './upload-validation';

export interface SandboxOptions {
  /** 0 (default): a free port. */
  readonly port?: number;
  /** The sandbox only ever binds to the loopback address. */
  readonly host?: '127.0.0.1';
  /** Default: DEFAULT_CONFIG (one active organisation with the demo key). */
  readonly config?: SandboxConfigInput;
  /** JSON file the state is loaded from on start and saved to after every change. */
  readonly stateFile?: string;
  /** Clock for uploaded_at, processing and rate-limit windows (epoch ms). Latency uses real timers. */
  readonly now?: () => number;
  /** Token for the `/_sandbox/` admin routes; random per start when not given. */
  readonly adminToken?: string;
}

export interface LoggedRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly version: ApiVersion | null;
  /** Null when no answer was sent (dropped connection, client gone). */
  readonly status: number | null;
  readonly endpoint: Endpoint | null;
  /** `http_500`, `dropped_before_processing`, `dropped_after_processing`, `schema_break:<mode>`, or null. */
  readonly fault: string | null;
  readonly orgId: string | null;
  /** `now()` when the request arrived. */
  readonly at: number;
}

export interface Sandbox {
  /** Base URL without the version, e.g. http://127.0.0.1:4010. */
  readonly url: string;
  readonly port: number;
  readonly adminToken: string;
  close(): Promise<void>;
  requestLog(): readonly LoggedRequest[];
  clearLog(): void;
  /** Changes the scenario (a preset name, or a patch optionally naming a preset to start from) and restarts its random sequence. */
  setScenario(patch: ScenarioPatch | ScenarioName): Scenario;
  scenario(): Scenario;
  upsertOrganisation(org: OrganisationInput): Organisation;
  getOrganisation(id: string): Organisation | null;
  listOrganisations(): readonly Organisation[];
  /** Stored recordings: facts and hashes, never audio. */
  listRecordings(orgId?: string): readonly RecordingRecord[];
  /** Back to the configuration: its organisations and scenario, no accounts, no recordings, empty log. */
  reset(): void;
}

/** The largest body an upload of a 50,000,000-byte file can need: its Base64 plus room for the other fields. */
export const MAX_UPLOAD_BODY_BYTES = 4 * Math.ceil(LIMITS.maxAudioBytes / 3) + 64 * 1024;
const MAX_OTHER_BODY_BYTES = 64 * 1024;
const MAX_LOG_ENTRIES = 10_000;

interface Failure {
  readonly kind: 'error';
  readonly status: number;
  readonly type: string;
  readonly message: string;
}
interface Success {
  readonly kind: 'ok';
  readonly body: unknown;
}
type Outcome = Failure | Success;

const failure = (status: number, type: string, message: string): Failure => ({
  kind: 'error',
  status,
  type,
  message,
});
const success = (body: unknown): Success => ({ kind: 'ok', body });

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Path and query of the request target (origin-form, or absolute-form as proxies send it). */
const splitTarget = (target: string): { pathname: string; query: URLSearchParams } => {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = absolute ? target.slice(absolute[0].length) : target;
  const hash = rest.indexOf('#');
  const noHash = hash >= 0 ? rest.slice(0, hash) : rest;
  const q = noHash.indexOf('?');
  const pathname = (q >= 0 ? noHash.slice(0, q) : noHash) || '/';
  return {
    pathname: pathname.startsWith('/') ? pathname : `/${pathname}`,
    query: new URLSearchParams(q >= 0 ? noHash.slice(q + 1) : ''),
  };
};

const bearerKey = (header: string | undefined): string | null => {
  const m = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m ? m[1]! : null;
};

export const startSandbox = async (options: SandboxOptions = {}): Promise<Sandbox> => {
  const config = SandboxConfig.parse(options.config ?? DEFAULT_CONFIG);
  const now = options.now ?? Date.now;
  const adminToken = options.adminToken ?? randomBytes(24).toString('hex');
  const initialScenario = resolveScenario(config.scenario);
  const faults = new FaultInjector(initialScenario);
  const state = SandboxState.open(config.organisations, options.stateFile ?? null);
  const limiter = new RateLimiter();
  const simulation: SimulationMark = {
    simulated: true,
    generator: `voicescope-sandbox/${SIMULATOR_VERSION}`,
  };
  let log: LoggedRequest[] = [];

  const record = (entry: LoggedRequest): void => {
    log.push(entry);
    if (log.length > MAX_LOG_ENTRIES) log = log.slice(-MAX_LOG_ENTRIES);
  };

  // ------------------------------------------------------------------------------------------------
  // Endpoints

  const createAccount = (orgId: string, body: Buffer): Outcome => {
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
    const account = { id: randomUUID(), orgId, createdAt: now() };
    state.addAccount(account);
    return success(renderAccount(account));
  };

  const upload = async (
    version: ApiVersion,
    org: Organisation,
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<Outcome> => {
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
    const uploadedAt = now();
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
            dueAt: uploadedAt + faults.processingMs(type),
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
    return success(renderRecording(rec, simulation));
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

  const getAnalysis = (
    version: ApiVersion,
    org: Organisation,
    recordingId: string,
    query: URLSearchParams,
  ): Outcome => {
    if (!Uuid.safeParse(recordingId).success) {
      return failure(400, 'InvalidRequest', `The recording id "${recordingId.slice(0, 80)}" is not a UUID.`);
    }
    const allowed = analysisTypesFor(version);
    let types: AnalysisType[] | null = null;
    const filter = query.getAll('analysis');
    if (filter.length) {
      const names = filter
        .flatMap((f) => f.split(','))
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      for (const n of names) {
        if (!AnalysisTypeSchema.safeParse(n).success || !allowed.includes(n as AnalysisType)) {
          return failure(
            400,
            'InvalidRequest',
            `The query parameter "analysis" names "${n.slice(0, 60)}", which is not an analysis type of ${version} (use ${allowed.join(', ')}).`,
          );
        }
      }
      if (names.length) types = [...new Set(names as AnalysisType[])];
    }
    const rec = state.recording(recordingId);
    if (!rec || rec.orgId !== org.id)
      return failure(404, 'RecordingNotFound', `No recording ${recordingId} exists in this organisation.`);
    const shown = types ?? allowed.filter((t) => t !== 'communication_coach' || rec.requested.includes(t));
    const at = now();
    const input = {
      recording: rec,
      types: shown,
      statusOf: (t: AnalysisType) => state.statusOf(rec, t, at),
      valuesOf: valuesOf(rec),
      simulation,
    };
    return success(version === 'v1.3' ? renderAnalysisV13(input) : renderAnalysisV12(input));
  };

  const dispatch = async (
    version: ApiVersion,
    endpoint: Endpoint,
    org: Organisation | null,
    recordingId: string | null,
    req: http.IncomingMessage,
    query: URLSearchParams,
    body: Buffer,
  ): Promise<Outcome> => {
    if (endpoint === 'ping') return success(renderPing());
    if (org === null) throw new Error('an authenticated endpoint without an organisation');
    switch (endpoint) {
      case 'createAccount':
        return createAccount(org.id, body);
      case 'upload':
        return upload(version, org, req, body);
      case 'getAnalysis':
        return getAnalysis(version, org, recordingId ?? '', query);
      case 'getUsage':
        return success(version === 'v1.3' ? renderUsageV13(org.credits) : renderUsageV12(org));
    }
  };

  // ------------------------------------------------------------------------------------------------
  // The request pipeline

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const at = now();
    const method = req.method ?? 'GET';
    const { pathname, query } = splitTarget(req.url ?? '/');
    const route = matchRoute(method, pathname);
    if (route.kind === 'admin') return handleAdmin(req, res, route.subpath, admin);

    const entry: { -readonly [K in keyof LoggedRequest]: LoggedRequest[K] } = {
      method,
      path: pathname,
      version: null,
      status: null,
      endpoint: null,
      fault: null,
      orgId: null,
      at,
    };
    const finish = (status: number | null) => record({ ...entry, status });
    const fail = (status: number, type: string, message: string, headers: Record<string, string> = {}) => {
      sendJson(res, status, renderError(type, message), headers);
      finish(status);
    };
    const drop = (fault: string | null) => {
      entry.fault = fault;
      req.socket.destroy();
      finish(null);
    };

    if (route.kind === 'not_found') {
      entry.version = route.version;
      await discardBody(req);
      return fail(404, 'NotFound', route.message);
    }
    if (route.kind === 'method_not_allowed') {
      entry.version = route.version;
      entry.endpoint = route.endpoint;
      await discardBody(req);
      return fail(405, 'MethodNotAllowed', `${method} is not allowed on ${pathname}; use ${route.allow}.`, {
        Allow: route.allow,
      });
    }
    const { version, endpoint } = route;
    entry.version = version;
    entry.endpoint = endpoint;

    // Authentication and access, decided from the headers alone.
    let org: Organisation | null = null;
    let key: string | null = null;
    let refused: Failure | null = null;
    if (endpoint !== 'ping') {
      const header = req.headers.authorization;
      key = bearerKey(header);
      org = key === null ? null : state.orgByKey(key);
      if (org === null) {
        refused =
          header === undefined
            ? failure(
                401,
                'Unauthorized',
                'This endpoint needs the header "Authorization: Bearer <API key>".',
              )
            : failure(401, 'Unauthorized', 'The API key is not valid.');
      } else {
        entry.orgId = org.id;
        if (org.access === 'suspended')
          refused = failure(403, 'Suspended', 'Access for this organisation is suspended.');
        else if (
          org.access === 'not_provisioned' &&
          version === 'v1.3' &&
          (endpoint === 'upload' || endpoint === 'getUsage')
        ) {
          refused = failure(
            403,
            'ApiNotProvisioned',
            'API billing is not provisioned for this organisation.',
          );
        }
      }
    }

    // The body: buffered only for requests that will be processed, under the endpoint's cap.
    let body: Buffer = Buffer.alloc(0);
    if (refused) await discardBody(req);
    else {
      const read = await readBody(req, endpoint === 'upload' ? MAX_UPLOAD_BODY_BYTES : MAX_OTHER_BODY_BYTES);
      if (read.kind === 'aborted') return finish(null);
      if (read.kind === 'too_large') {
        // Answered at once. The rest of the body is read and dropped (up to a hard limit), so the client
        // can finish sending and read the answer; closing now would make many clients fail with EPIPE.
        // Only upload has a 413 in the spec; account creation answers 400; GET endpoints ignore bodies.
        if (endpoint === 'upload')
          return fail(
            413,
            'FileTooLarge',
            'The request body is larger than an upload of a 50,000,000-byte (50 MB) audio file can be.',
          );
        if (endpoint === 'createAccount')
          return fail(
            400,
            'InvalidRequest',
            `The request body is larger than ${MAX_OTHER_BODY_BYTES} bytes; send no body (v1.3) or an empty JSON object (v1.2).`,
          );
      } else {
        body = read.bytes;
      }
    }

    const delay = faults.latencyMs(endpoint);
    if (delay > 0) await sleep(delay);
    if (closed) return;

    const pre = faults.preFault(endpoint);
    if (pre === 'http_500') {
      entry.fault = pre;
      return fail(500, 'InternalError', '');
    }
    if (pre === 'dropped_before_processing') return drop(pre);
    if (refused) return fail(refused.status, refused.type, refused.message);

    const limit = faults.current.rateLimit;
    if (
      limit &&
      key !== null &&
      version === 'v1.3' &&
      (endpoint === 'upload' || endpoint === 'getAnalysis') &&
      !limiter.admit(key, limit, now())
    ) {
      return fail(
        429,
        'RateLimitExceeded',
        `Too many requests: at most ${limit.maxRequests} per ${limit.windowMs / 1000} s for this API key.`,
        limit.retryAfterSeconds !== null ? { 'Retry-After': String(limit.retryAfterSeconds) } : {},
      );
    }

    const outcome = await dispatch(version, endpoint, org, route.recordingId, req, query, body);
    if (outcome.kind === 'error') return fail(outcome.status, outcome.type, outcome.message);

    if (faults.dropAfterProcessing(endpoint)) return drop('dropped_after_processing');
    const modes = faults.schemaBreak(endpoint);
    if (modes) {
      const broken = breakAnswer(outcome.body, schemaFor(endpoint, version), modes, () => faults.next());
      if (broken) {
        entry.fault = `schema_break:${broken.mode}`;
        sendText(res, 200, broken.body, broken.contentType);
        return finish(200);
      }
    }
    sendJson(res, 200, outcome.body);
    finish(200);
  };

  // ------------------------------------------------------------------------------------------------
  // Controls (methods of the Sandbox, and the admin routes)

  const initialOrgs = config.organisations;
  const upsertOrganisation = (input: OrganisationInput): Organisation =>
    state.upsertOrganisation(Organisation.parse(input));
  const setScenario = (patch: ScenarioPatch | ScenarioName): Scenario => {
    const next = resolveScenario(patch, faults.current);
    faults.reset(next);
    limiter.clear();
    return next;
  };
  const reset = (): void => {
    state.reset(initialOrgs);
    faults.reset(initialScenario);
    limiter.clear();
    log = [];
  };
  const listRecordings = (orgId?: string): RecordingRecord[] =>
    state
      .allRecordings()
      .filter((r) => orgId === undefined || r.orgId === orgId)
      .map((r) => structuredClone(r));

  const admin = {
    adminToken,
    organisations: () => state.organisations().map((o) => ({ ...o, ...state.countFor(o.id) })),
    organisation: (id: string) => {
      const o = state.organisation(id);
      return o && { ...o, ...state.countFor(id) };
    },
    upsertOrganisation,
    scenario: () => faults.current,
    setScenario,
    requests: () => log,
    clearLog: () => {
      log = [];
    },
    recordings: () => listRecordings(),
    reset,
  };

  // ------------------------------------------------------------------------------------------------
  // The server

  let closed = false;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    res.on('error', () => undefined);
    handle(req, res).catch((e: unknown) => {
      const message = `The sandbox failed: ${e instanceof Error ? e.message : String(e)}`;
      if (!res.headersSent) sendJson(res, 500, renderError('InternalError', message));
      else res.destroy();
    });
  });
  // Requests Node cannot parse as HTTP still get a JSON error and the simulated mark.
  server.on('clientError', (e: NodeJS.ErrnoException, socket: Socket) => {
    if (e.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(renderError('InvalidRequest', 'The request is not valid HTTP/1.1.'));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nX-Voicescope-Simulated: 1\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
  // Slow uploads of 50 MB files must not be cut off by Node's default 5-minute request timeout.
  server.requestTimeout = 30 * 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    adminToken,
    close: () => {
      closed = true;
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        state.close();
      });
      return closing;
    },
    requestLog: () => [...log],
    clearLog: () => {
      log = [];
    },
    setScenario,
    scenario: () => faults.current,
    upsertOrganisation,
    getOrganisation: (id) => state.organisation(id),
    listOrganisations: () => state.organisations(),
    listRecordings,
    reset,
  };
};
