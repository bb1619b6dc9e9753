/** Finding what the researcher named on the command line: a study, a profile; and saying what went wrong. */
import type { ServiceProblem, StudyService } from '../services/study-service';
import { EXIT, need, UsageError } from './command';
import type { Output } from './output';

export const resolveStudy = async (svc: StudyService, v: string | undefined) => {
  const s = await svc.findStudy(need(v, 'study'));
  if (!s) throw new UsageError(`No study "${v}". List them with: voicescope study list`);
  return s;
};

export const resolveProfile = async (svc: StudyService, v: string | undefined) => {
  const key = need(v, 'profile');
  const p = (await svc.listProfiles()).find((x) => x.name === key || String(x.id) === key);
  if (!p) throw new UsageError(`No service profile "${key}". List them with: voicescope profile list`);
  return p;
};

/** Writes a service's problem; the exit code says whether the service or profile is unusable or the work was refused. */
export const reportProblem = (out: Output, p: ServiceProblem): number => {
  out.problem(p.message, p.action, p.apiError ? { error: p.apiError } : {});
  return p.apiError &&
    ['Unauthorized', 'Suspended', 'ApiNotProvisioned', 'NetworkError', 'Timeout'].includes(p.apiError.kind)
    ? EXIT.service
    : EXIT.refused;
};
