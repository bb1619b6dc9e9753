/**
 * The sandbox service: a local HTTP server (node:http, bound to 127.0.0.1 only) that implements the
 * Speech Analysis specification in both versions, with simulated results that are always marked as
 * such (`X-Voicescope-Simulated: 1` on every answer, `simulation` in upload and analysis answers).
 *
 * Its parts: the request pipeline (pipeline.ts) in front of the endpoints (endpoints.ts), which work on
 * the state (state.ts) and the simulation (simulate.ts); the controls (controls.ts) behind the Sandbox's
 * methods and the admin routes; the request log (request-log.ts). This module starts and stops the server.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import {
  DEFAULT_CONFIG,
  resolveScenario,
  SandboxConfig,
  type Organisation,
  type OrganisationInput,
  type SandboxConfigInput,
} from './config';
import { createControls } from './controls';
import type { SandboxWorld } from './endpoints';
import { discardBody, sendJson } from './http-io';
import { createRequestHandler } from './pipeline';
import { RateLimiter } from './rate-limit';
import { renderError } from './render';
import { RequestLog, type LoggedRequest } from './request-log';
import { FaultInjector, type Scenario, type ScenarioName, type ScenarioPatch } from './scenario';
import { SIMULATOR_VERSION } from './simulate';
import { SandboxState, type RecordingRecord } from './state';

export { MAX_UPLOAD_BODY_BYTES } from './pipeline';
export type { LoggedRequest } from './request-log';

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

/**
 * The sandbox answers only requests addressed to itself: `Host` must be `127.0.0.1:<port>` or
 * `localhost:<port>`. A web page that rebinds a name of its own to 127.0.0.1 sends its own name and is
 * refused with 421; a request without `Host` (required by HTTP/1.1) is 400.
 */
export const hostRefusal = (
  host: string | undefined,
  port: number,
): { status: number; type: string; message: string } | null => {
  if (host === undefined || host.trim() === '')
    return { status: 400, type: 'InvalidRequest', message: 'The request has no Host header.' };
  const h = host.trim().toLowerCase();
  if (h === `127.0.0.1:${port}` || h === `localhost:${port}`) return null;
  return {
    status: 421,
    type: 'MisdirectedRequest',
    message: `This sandbox answers only requests for 127.0.0.1:${port} or localhost:${port}.`,
  };
};

export const startSandbox = async (options: SandboxOptions = {}): Promise<Sandbox> => {
  const config = SandboxConfig.parse(options.config ?? DEFAULT_CONFIG);
  const adminToken = options.adminToken ?? randomBytes(24).toString('hex');
  const initialScenario = resolveScenario(config.scenario);
  const world: SandboxWorld = {
    config,
    now: options.now ?? Date.now,
    faults: new FaultInjector(initialScenario),
    state: SandboxState.open(config.organisations, options.stateFile ?? null),
    simulation: { simulated: true, generator: `voicescope-sandbox/${SIMULATOR_VERSION}` },
  };
  const { faults, state } = world;
  const limiter = new RateLimiter();
  const log = new RequestLog();
  const controls = createControls(world, limiter, log, adminToken, initialScenario);
  let closed = false;
  const handle = createRequestHandler({ world, limiter, log, admin: controls, closed: () => closed });

  // ------------------------------------------------------------------------------------------------
  // The server

  const sockets = new Set<Socket>();
  let port = 0;
  const server = http.createServer((req, res) => {
    res.on('error', () => undefined);
    const misdirected = hostRefusal(req.headers.host, port);
    if (misdirected) {
      sendJson(res, misdirected.status, renderError(misdirected.type, misdirected.message));
      void discardBody(req);
      log.record({
        method: req.method ?? 'GET',
        path: '',
        version: null,
        status: misdirected.status,
        endpoint: null,
        fault: null,
        orgId: null,
        at: world.now(),
      });
      return;
    }
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
  port = (server.address() as AddressInfo).port;

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
    requestLog: () => [...log.entries()],
    clearLog: () => log.clear(),
    setScenario: controls.setScenario,
    scenario: () => faults.current,
    upsertOrganisation: controls.upsertOrganisation,
    getOrganisation: (id) => state.organisation(id),
    listOrganisations: () => state.organisations(),
    listRecordings: controls.listRecordings,
    reset: controls.reset,
  };
};
