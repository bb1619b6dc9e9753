/**
 * The sandbox's admin routes under `/_sandbox/`, for tests and demos. Every call needs the header
 * `X-Sandbox-Admin: <token>` (random per start unless configured; the CLI prints it).
 *
 *   GET  /_sandbox/organisations          all organisations
 *   PUT  /_sandbox/organisations          add or replace one organisation (body: an organisation, or an array of them)
 *   GET  /_sandbox/organisations/{id}     one organisation
 *   PUT  /_sandbox/organisations/{id}     add or replace it (body: an organisation; its `id` may be left out)
 *   GET  /_sandbox/scenario               the scenario in force
 *   PUT  /_sandbox/scenario               change it (body: a partial scenario, optionally with `preset`)
 *   GET  /_sandbox/requests               the request log (no keys, no audio)
 *   DELETE /_sandbox/requests             clear the request log
 *   GET  /_sandbox/recordings             stored recordings (facts and hashes, never audio)
 *   POST /_sandbox/reset                  back to the configuration: no accounts, no recordings, first scenario
 */
import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { z } from 'zod';
import { Organisation, type OrganisationInput } from './config';
import { readBody, sendJson } from './http-io';
import { renderError } from './render';
import { ScenarioPatch, type Scenario } from './scenario';

export interface AdminControls {
  readonly adminToken: string;
  organisations(): unknown[];
  organisation(id: string): unknown | null;
  upsertOrganisation(org: OrganisationInput): unknown;
  scenario(): Scenario;
  setScenario(patch: ScenarioPatch): Scenario;
  requests(): readonly unknown[];
  clearLog(): void;
  recordings(): unknown[];
  reset(): void;
}

const ADMIN_BODY_CAP = 1024 * 1024;

const tokenMatches = (given: string | string[] | undefined, expected: string): boolean => {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const fail = (
  res: http.ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) => sendJson(res, status, renderError(type, message), headers);

const problem = (e: unknown): string =>
  e instanceof z.ZodError
    ? z.prettifyError(e).replace(/\n/g, ' ')
    : e instanceof Error
      ? e.message
      : String(e);

export const handleAdmin = async (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  subpath: string,
  ctl: AdminControls,
): Promise<void> => {
  const body = await readBody(req, ADMIN_BODY_CAP);
  if (body.kind === 'aborted') return;
  if (!tokenMatches(req.headers['x-sandbox-admin'], ctl.adminToken)) {
    return fail(
      res,
      401,
      'Unauthorized',
      "Admin routes need the header X-Sandbox-Admin with the sandbox's admin token.",
    );
  }
  if (body.kind === 'too_large')
    return fail(res, 413, 'RequestTooLarge', 'Admin requests are limited to 1 MiB.');
  const method = req.method ?? 'GET';
  let json: unknown = undefined;
  if (body.bytes.length) {
    try {
      json = JSON.parse(body.bytes.toString('utf8'));
    } catch {
      return fail(res, 400, 'InvalidRequest', 'The request body is not valid JSON.');
    }
  }
  const allow = (methods: string, run: Partial<Record<string, () => void>>): void => {
    const f = run[method];
    if (!f)
      return fail(
        res,
        405,
        'MethodNotAllowed',
        `${method} is not allowed on /_sandbox${subpath}; use ${methods}.`,
        { Allow: methods },
      );
    try {
      f();
    } catch (e) {
      fail(res, 400, 'InvalidRequest', problem(e));
    }
  };

  const orgMatch = /^\/organisations\/([^/]+)$/.exec(subpath);
  if (subpath === '/organisations') {
    return allow('GET, PUT', {
      GET: () => sendJson(res, 200, ctl.organisations()),
      PUT: () => {
        const list = Array.isArray(json) ? json : [json];
        const parsed = list.map((o) => Organisation.parse(o));
        sendJson(
          res,
          200,
          parsed.map((o) => ctl.upsertOrganisation(o)),
        );
      },
    });
  }
  if (orgMatch) {
    const id = decodeURIComponent(orgMatch[1]!);
    return allow('GET, PUT', {
      GET: () => {
        const o = ctl.organisation(id);
        if (o === null) fail(res, 404, 'NotFound', `There is no organisation "${id}".`);
        else sendJson(res, 200, o);
      },
      PUT: () => {
        const given = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
        if (given['id'] !== undefined && given['id'] !== id)
          throw new Error(`The body's id "${String(given['id'])}" differs from the path's "${id}".`);
        sendJson(res, 200, ctl.upsertOrganisation(Organisation.parse({ ...given, id })));
      },
    });
  }
  if (subpath === '/scenario') {
    return allow('GET, PUT', {
      GET: () => sendJson(res, 200, ctl.scenario()),
      PUT: () => sendJson(res, 200, ctl.setScenario(ScenarioPatch.parse(json ?? {}))),
    });
  }
  if (subpath === '/requests') {
    return allow('GET, DELETE', {
      GET: () => sendJson(res, 200, ctl.requests()),
      DELETE: () => {
        ctl.clearLog();
        sendJson(res, 200, { cleared: true });
      },
    });
  }
  if (subpath === '/recordings') return allow('GET', { GET: () => sendJson(res, 200, ctl.recordings()) });
  if (subpath === '/reset')
    return allow('POST', {
      POST: () => {
        ctl.reset();
        sendJson(res, 200, { reset: true });
      },
    });
  return fail(res, 404, 'NotFound', `There is no admin route /_sandbox${subpath}.`);
};
