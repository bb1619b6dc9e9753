/**
 * The sandbox's controls: what a test or the researcher changes while it runs (organisations, the
 * scenario, the request log, a reset), shared by the methods of the Sandbox and the admin routes.
 */
import type { AdminControls } from './admin';
import { Organisation, resolveScenario, type OrganisationInput } from './config';
import type { SandboxWorld } from './endpoints';
import type { RateLimiter } from './rate-limit';
import type { RequestLog } from './request-log';
import type { Scenario, ScenarioName, ScenarioPatch } from './scenario';
import type { RecordingRecord } from './state';

export interface SandboxControls extends AdminControls {
  upsertOrganisation(org: OrganisationInput): Organisation;
  setScenario(patch: ScenarioPatch | ScenarioName): Scenario;
  listRecordings(orgId?: string): RecordingRecord[];
}

export const createControls = (
  { config, faults, state }: SandboxWorld,
  limiter: RateLimiter,
  log: RequestLog,
  adminToken: string,
  initialScenario: Scenario,
): SandboxControls => {
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
    log.clear();
  };
  const listRecordings = (orgId?: string): RecordingRecord[] =>
    state
      .allRecordings()
      .filter((r) => orgId === undefined || r.orgId === orgId)
      .map((r) => structuredClone(r));

  return {
    adminToken,
    organisations: () => state.organisations().map((o) => ({ ...o, ...state.countFor(o.id) })),
    organisation: (id: string) => {
      const o = state.organisation(id);
      return o && { ...o, ...state.countFor(id) };
    },
    upsertOrganisation,
    scenario: () => faults.current,
    setScenario,
    requests: () => log.entries(),
    clearLog: () => log.clear(),
    recordings: () => listRecordings(),
    listRecordings,
    reset,
  };
};
