/**
 * Import: the preview held in the main process and paged to the renderer, the credit estimate, and the
 * commit into a batch. Browsing for the files is files.handlers.ts.
 */
import type { importsContract } from '../../../shared/contract/imports.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import type { HandlersOf } from '../router';
import { fromProblem, type HostDeps } from './deps';

const planGone = () =>
  err(
    appError(
      'NOT_FOUND',
      'This preview is no longer held (a newer one replaced it, or Voicescope restarted).',
      'Preview the import again.',
    ),
  );

export const importsHandlers = (d: HostDeps): HandlersOf<typeof importsContract> => {
  const { service, plans } = d;
  const committing = new Set<string>();
  return {
    async 'imports.preview'(req) {
      let last = 0;
      const planned = await service.planImport(req, (done, total) => {
        const t = Date.now();
        if (done === total || t - last >= 200) {
          last = t;
          d.bus.publish('imports.progress', { done, total });
        }
      });
      if (!planned.ok) return fromProblem(planned.error);
      const plan = planned.value;
      return ok({
        planId: plans.put(plan),
        counts: plan.counts,
        totalFiles: plan.files.length,
        totalBytes: plan.files.reduce((a, f) => a + f.sizeBytes, 0),
        manifestErrors: plan.manifestErrors,
        notices: plan.notices,
        newParticipants: plan.newParticipants,
        participantsWithoutAccount: plan.participantsWithoutAccount,
      });
    },
    'imports.planFiles'({ planId, action, offset, limit }) {
      const plan = plans.get(planId);
      if (!plan) return planGone();
      const files = action ? plan.files.filter((f) => f.action === action) : plan.files;
      return ok({ rows: files.slice(offset, offset + limit), total: files.length });
    },
    async 'imports.creditEstimate'({ planId }) {
      const plan = plans.get(planId);
      if (!plan) return planGone();
      const estimate = await service.creditEstimate(plan);
      if (!estimate)
        return err(
          appError(
            'NOT_FOUND',
            'The study of this preview no longer exists.',
            'Choose a study and preview again.',
          ),
        );
      return estimate.ok ? ok(estimate.value) : fromProblem(estimate.error);
    },
    async 'imports.commit'({ planId, insistOnDuplicates, sendBorderline, label, start, site: asked }) {
      const plan = plans.get(planId);
      if (!plan) return planGone();
      // A site matters only to new participants: without any, none is needed unless one is named.
      const site =
        plan.newParticipants.length > 0 || asked !== undefined
          ? await service.importSite(plan.request.studyId, asked, 'window')
          : null;
      if (site && !site.ok) return fromProblem(site.error);
      // Committed once: a second click while the first runs must not import the files twice; a commit that
      // fails (a full disk while converting) keeps the preview, so the researcher can try again.
      if (committing.has(planId))
        return err(appError('CONFLICT', 'This import is already being committed.', 'Wait for it to finish.'));
      committing.add(planId);
      try {
        const r = await service.commitImport(plan, {
          insistOnDuplicates,
          ...(sendBorderline ? { sendBorderline } : {}),
          label,
          ...(start ? { start } : {}),
          ...(site ? { site: site.value } : {}),
        });
        plans.drop(planId);
        // The local acoustic measures and quality control of the new recordings, off the main thread.
        const studyId = plan.request.studyId;
        void service.measureInBackground(studyId, (done, total) =>
          d.bus.publish('acoustics.progress', { studyId, done, total }),
        );
        return ok(r);
      } finally {
        committing.delete(planId);
      }
    },
    'imports.discard': ({ planId }) => ok({ done: plans.drop(planId) }),
  };
};
