/** A sandbox with one lab organisation (the demo key) and the given credits and scenario, for engine tests. */
import { DEMO_API_KEY } from '../../main/sandbox/config';
import type { ScenarioPatch } from '../../main/sandbox/scenario';
import type { StudyService } from '../../main/services/study-service';
import { startSandbox, type Sandbox } from '../../main/sandbox/server';

export const startLabSandbox = (
  opts: { credits?: number; scenario?: ScenarioPatch } = {},
): Promise<Sandbox> => {
  const n = opts.credits ?? 500;
  return startSandbox({
    port: 0,
    config: {
      organisations: [
        {
          id: 'lab',
          name: 'Lab',
          apiKeys: [DEMO_API_KEY],
          credits: {
            trial_remaining: 0,
            trial_granted: 0,
            included_remaining: n,
            included_granted: n,
            purchased_remaining: 0,
          },
        },
      ],
      ...(opts.scenario ? { scenario: opts.scenario } : {}),
    },
  });
};

/** A sandbox profile and a study on it, in the given service; returns the study and profile ids. */
export const createSandboxStudy = async (
  svc: StudyService,
  sandbox: Sandbox,
  name: string,
): Promise<{ studyId: number; profileId: number }> => {
  const profile = await svc.createProfile({
    name: 'sandbox',
    baseUrl: sandbox.url,
    apiVersion: 'v1.3',
    apiKey: DEMO_API_KEY,
    isSandbox: true,
  });
  if (!profile.ok) throw new Error(profile.error.message);
  const study = svc.createStudy({ name, profileId: profile.value.id });
  if (!study.ok) throw new Error(study.error.message);
  return { studyId: study.value.id, profileId: profile.value.id };
};
