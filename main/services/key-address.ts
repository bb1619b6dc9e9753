/**
 * Which addresses may receive an API key: https anywhere; plain http only to this computer by name
 * (127.0.0.1, localhost, [::1]), where the built-in sandbox listens. Every request that carries a key
 * is built here (the engine's clients, a profile's test, the test of a draft before it is saved) and
 * every address a profile is given passes through `keyAddressProblem`, so the rule is decided once.
 */
import { createApiClient, type ApiClient, type ClientOptions } from '../api/client';
import { problem, type ServiceProblem } from './service-context';

/** The only hosts a key may reach over plain http; anything else on 127.0.0.0/8 is another service. */
const PLAIN_HTTP_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const keyMayTravelTo = (baseUrl: string): boolean => {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && PLAIN_HTTP_HOSTS.has(url.hostname));
};

/** Why a key may not go to this address, in the researcher's words; null when it may. */
export const keyAddressProblem = (baseUrl: string): ServiceProblem | null =>
  keyMayTravelTo(baseUrl)
    ? null
    : problem(
        'The service address must use https (plain http is allowed only for a sandbox on this computer: 127.0.0.1, localhost or [::1]).',
        'Use the https:// address your service administrator gave you.',
      );

/** An API client that refuses, before a byte leaves, every keyed call to an address the rule refuses. */
export const keyedClient = (opts: Omit<ClientOptions, 'mayReceiveKey'>): ApiClient =>
  createApiClient({ ...opts, mayReceiveKey: keyMayTravelTo });
