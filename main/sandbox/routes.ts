/**
 * The service's routes (spec: Endpoints), matched on method and path. The version is the first path
 * segment. Unknown versions and paths are 404, a known path with the wrong method is 405.
 */
import type { Endpoint } from '../../shared/api/api-error';
import { API_VERSIONS, type ApiVersion } from '../../shared/api/vocabulary';

export const ADMIN_PREFIX = '/_sandbox';

export type RouteMatch =
  | {
      readonly kind: 'api';
      readonly version: ApiVersion;
      readonly endpoint: Endpoint;
      readonly recordingId: string | null;
    }
  | { readonly kind: 'admin'; readonly subpath: string }
  | { readonly kind: 'not_found'; readonly version: ApiVersion | null; readonly message: string }
  | {
      readonly kind: 'method_not_allowed';
      readonly version: ApiVersion;
      readonly endpoint: Endpoint;
      readonly allow: string;
    };

interface RouteDef {
  readonly pattern: RegExp;
  readonly method: 'GET' | 'POST';
  readonly endpoint: Endpoint;
}

const ROUTES: readonly RouteDef[] = [
  { pattern: /^\/ping$/, method: 'GET', endpoint: 'ping' },
  { pattern: /^\/accounts$/, method: 'POST', endpoint: 'createAccount' },
  { pattern: /^\/recordings$/, method: 'POST', endpoint: 'upload' },
  { pattern: /^\/recordings\/([^/]+)\/analysis$/, method: 'GET', endpoint: 'getAnalysis' },
  { pattern: /^\/usage\/recordings$/, method: 'GET', endpoint: 'getUsage' },
];

const isVersion = (s: string): s is ApiVersion => (API_VERSIONS as readonly string[]).includes(s);

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export const matchRoute = (method: string, pathname: string): RouteMatch => {
  if (pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)) {
    return { kind: 'admin', subpath: pathname.slice(ADMIN_PREFIX.length) || '/' };
  }
  const m = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const first = m ? safeDecode(m[1]!) : '';
  if (!m || !isVersion(first)) {
    return {
      kind: 'not_found',
      version: null,
      message: first
        ? `There is no API version "${first.slice(0, 40)}"; use v1.3 or v1.2.`
        : 'Paths start with the API version: /v1.3/… or /v1.2/….',
    };
  }
  const rest = m[2] ?? '';
  for (const r of ROUTES) {
    const hit = r.pattern.exec(rest);
    if (!hit) continue;
    if (method !== r.method)
      return { kind: 'method_not_allowed', version: first, endpoint: r.endpoint, allow: r.method };
    return {
      kind: 'api',
      version: first,
      endpoint: r.endpoint,
      recordingId: hit[1] !== undefined ? safeDecode(hit[1]) : null,
    };
  }
  return {
    kind: 'not_found',
    version: first,
    message: `There is no endpoint ${rest.slice(0, 120) || '/'} in ${first}.`,
  };
};
