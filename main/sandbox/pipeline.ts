/**
 * The sandbox's request pipeline. A request goes: route (404, 405) → authentication and access, decided
 * from the headers → the body, buffered under its size cap only when authenticated (413 at once past the
 * cap), else read and dropped → latency → an injected 500 or dropped connection → the 401 or 403 decided
 * earlier → 429 → the endpoint (endpoints.ts) → for an accepted upload, perhaps a dropped connection after
 * it was stored and charged → perhaps an answer that breaks the schema.
 */
import type http from 'node:http';
import type { Endpoint } from '../../shared/api/api-error';
import { LIMITS, type ApiVersion } from '../../shared/api/vocabulary';
import { handleAdmin, type AdminControls } from './admin';
import type { Organisation } from './config';
import { dispatch, failure, type Failure, type SandboxWorld } from './endpoints';
import { discardBody, readBody, sendJson, sendText } from './http-io';
import type { RateLimiter } from './rate-limit';
import { renderError } from './render';
import type { LoggedRequest, RequestLog } from './request-log';
import { matchRoute } from './routes';
import { breakAnswer, schemaFor } from './schema-break';

/** The largest body an upload of a 50,000,000-byte file can need: its Base64 plus room for the other fields. */
export const MAX_UPLOAD_BODY_BYTES = 4 * Math.ceil(LIMITS.maxAudioBytes / 3) + 64 * 1024;
const MAX_OTHER_BODY_BYTES = 64 * 1024;

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

interface Access {
  readonly org: Organisation | null;
  readonly key: string | null;
  /** The 401 or 403 to answer, once latency and injected faults have had their turn. */
  readonly refused: Failure | null;
}

/** Authentication and access, decided from the headers alone. */
const authenticate = (
  w: SandboxWorld,
  req: http.IncomingMessage,
  version: ApiVersion,
  endpoint: Endpoint,
): Access => {
  if (endpoint === 'ping') return { org: null, key: null, refused: null };
  const header = req.headers.authorization;
  const key = bearerKey(header);
  const org = key === null ? null : w.state.orgByKey(key);
  if (org === null) {
    const refused =
      header === undefined
        ? failure(401, 'Unauthorized', 'This endpoint needs the header "Authorization: Bearer <API key>".')
        : failure(401, 'Unauthorized', 'The API key is not valid.');
    return { org, key, refused };
  }
  if (org.access === 'suspended')
    return { org, key, refused: failure(403, 'Suspended', 'Access for this organisation is suspended.') };
  if (
    org.access === 'not_provisioned' &&
    version === 'v1.3' &&
    (endpoint === 'upload' || endpoint === 'getUsage')
  ) {
    return {
      org,
      key,
      refused: failure(403, 'ApiNotProvisioned', 'API billing is not provisioned for this organisation.'),
    };
  }
  return { org, key, refused: null };
};

/**
 * The body: buffered only for requests that will be processed, under the endpoint's cap. `aborted`: the
 * client went away; a failure: answer it at once.
 */
const readRequestBody = async (
  req: http.IncomingMessage,
  endpoint: Endpoint,
  refused: boolean,
): Promise<{ kind: 'body'; bytes: Buffer } | { kind: 'aborted' } | Failure> => {
  if (refused) {
    await discardBody(req);
    return { kind: 'body', bytes: Buffer.alloc(0) };
  }
  const read = await readBody(req, endpoint === 'upload' ? MAX_UPLOAD_BODY_BYTES : MAX_OTHER_BODY_BYTES);
  if (read.kind === 'aborted') return read;
  if (read.kind === 'ok') return { kind: 'body', bytes: read.bytes };
  // Answered at once. The rest of the body is read and dropped (up to a hard limit), so the client
  // can finish sending and read the answer; closing now would make many clients fail with EPIPE.
  // Only upload has a 413 in the spec; account creation answers 400; GET endpoints ignore bodies.
  if (endpoint === 'upload')
    return failure(
      413,
      'FileTooLarge',
      'The request body is larger than an upload of a 50,000,000-byte (50 MB) audio file can be.',
    );
  if (endpoint === 'createAccount')
    return failure(
      400,
      'InvalidRequest',
      `The request body is larger than ${MAX_OTHER_BODY_BYTES} bytes; send no body (v1.3) or an empty JSON object (v1.2).`,
    );
  return { kind: 'body', bytes: Buffer.alloc(0) };
};

/** The 429 for a v1.3 upload or analysis read past the scenario's rate limit, or null to go on. */
const rateLimited = (
  w: SandboxWorld,
  limiter: RateLimiter,
  key: string | null,
  version: ApiVersion,
  endpoint: Endpoint,
): { failure: Failure; headers: Record<string, string> } | null => {
  const limit = w.faults.current.rateLimit;
  if (
    !limit ||
    key === null ||
    version !== 'v1.3' ||
    (endpoint !== 'upload' && endpoint !== 'getAnalysis') ||
    limiter.admit(key, limit, w.now())
  )
    return null;
  return {
    failure: failure(
      429,
      'RateLimitExceeded',
      `Too many requests: at most ${limit.maxRequests} per ${limit.windowMs / 1000} s for this API key.`,
    ),
    headers: limit.retryAfterSeconds !== null ? { 'Retry-After': String(limit.retryAfterSeconds) } : {},
  };
};

export interface PipelineDeps {
  readonly world: SandboxWorld;
  readonly limiter: RateLimiter;
  readonly log: RequestLog;
  readonly admin: AdminControls;
  /** True once the sandbox is closing: requests still waiting out their latency are not answered. */
  readonly closed: () => boolean;
}

export const createRequestHandler =
  ({ world: w, limiter, log, admin, closed }: PipelineDeps) =>
  async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const { faults } = w;
    const at = w.now();
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
    const finish = (status: number | null) => log.record({ ...entry, status });
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

    const { org, key, refused } = authenticate(w, req, version, endpoint);
    if (org !== null) entry.orgId = org.id;

    const read = await readRequestBody(req, endpoint, refused !== null);
    if (read.kind === 'aborted') return finish(null);
    if (read.kind === 'error') return fail(read.status, read.type, read.message);

    const delay = faults.latencyMs(endpoint);
    if (delay > 0) await sleep(delay);
    if (closed()) return;

    const pre = faults.preFault(endpoint);
    if (pre === 'http_500') {
      entry.fault = pre;
      return fail(500, 'InternalError', '');
    }
    if (pre === 'dropped_before_processing') return drop(pre);
    if (refused) return fail(refused.status, refused.type, refused.message);

    const limited = rateLimited(w, limiter, key, version, endpoint);
    if (limited)
      return fail(limited.failure.status, limited.failure.type, limited.failure.message, limited.headers);

    const outcome = await dispatch(w, {
      version,
      endpoint,
      org,
      recordingId: route.recordingId,
      req,
      query,
      body: read.bytes,
    });
    if (outcome.misbehaved?.length) entry.fault = `misbehave:${outcome.misbehaved.join(',')}`;
    if (outcome.kind === 'error') return fail(outcome.status, outcome.type, outcome.message);
    if (outcome.kind === 'raw') {
      sendText(res, outcome.status, outcome.text, outcome.contentType);
      return finish(outcome.status);
    }

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
