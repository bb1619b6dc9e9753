/**
 * Import: the built-in file browser (every mode) and the native dialogs (Electron), the preview held
 * in the main process and paged to the renderer, the credit estimate, and the commit into a batch.
 */
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import type { filesContract, importsContract } from '../../../shared/contract/imports.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import type { PlannedAction } from '../../../shared/study';
import { checkCredits } from '../../engine/credit-check';
import { AUDIO_EXTENSIONS } from '../../import/import-plan';
import { manifestTemplate } from '../../import/manifest';
import type { HandlersOf } from '../router';
import { fromProblem, type HostDeps } from './deps';

/** A folder listing stops here; the researcher narrows it by opening a subfolder. */
const MAX_ENTRIES = 5_000;

const planGone = () =>
  err(
    appError(
      'NOT_FOUND',
      'This preview is no longer held (a newer one replaced it, or Voicescope restarted).',
      'Preview the import again.',
    ),
  );

export const filesHandlers = (d: HostDeps): HandlersOf<typeof filesContract> => ({
  async 'files.list'({ path }) {
    const home = homedir();
    const dir = resolve(path ?? home);
    let names;
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return err(
        appError(
          'NOT_FOUND',
          code === 'EACCES' || code === 'EPERM'
            ? `You may not open ${dir}.`
            : `${dir} is not a folder that can be opened.`,
          'Choose another folder.',
        ),
      );
    }
    const visible = names.filter((n) => !n.name.startsWith('.') && (n.isDirectory() || n.isFile()));
    const entries = await Promise.all(
      visible.slice(0, MAX_ENTRIES).map(async (n) => {
        const full = join(dir, n.name);
        const ext = extname(n.name).toLowerCase();
        const size = n.isFile()
          ? await stat(full).then(
              (s) => s.size,
              () => null,
            )
          : null;
        return {
          name: n.name,
          path: full,
          kind: n.isDirectory() ? ('dir' as const) : ('file' as const),
          sizeBytes: size,
          audio: n.isFile() && AUDIO_EXTENSIONS.has(ext),
          csv: n.isFile() && ext === '.csv',
        };
      }),
    );
    entries.sort((a, b) =>
      a.kind === b.kind
        ? a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' })
        : a.kind === 'dir'
          ? -1
          : 1,
    );
    const parent = dirname(dir) === dir ? null : dirname(dir);
    return ok({ path: dir, parent, home, entries, truncated: visible.length > MAX_ENTRIES });
  },
  async 'files.pick'({ purpose }) {
    if (!d.dialogs)
      return err(
        appError(
          'UNSUPPORTED',
          'The system file dialog exists only in the desktop app.',
          'Use the built-in file browser.',
        ),
      );
    return ok({ paths: await d.dialogs.pick(purpose) });
  },
  'files.manifestTemplate': () => ok({ csv: manifestTemplate() }),
});

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
      const study = service.listStudies().find((s) => s.id === plan.request.studyId);
      if (!study?.profileId)
        return err(
          appError(
            'NOT_FOUND',
            'The study of this preview no longer exists.',
            'Choose a study and preview again.',
          ),
        );
      const usage = await service.readUsage(study.profileId);
      if (!usage.ok) return fromProblem(usage.error);
      const sending: PlannedAction[] = ['upload', 'convert_and_upload'];
      return ok(checkCredits(usage.value, plan.files.filter((f) => sending.includes(f.action)).length));
    },
    async 'imports.commit'({ planId, insistOnDuplicates, sendBorderline, label }) {
      const plan = plans.get(planId);
      if (!plan) return planGone();
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
        });
        plans.drop(planId);
        return ok(r);
      } finally {
        committing.delete(planId);
      }
    },
    'imports.discard': ({ planId }) => ok({ done: plans.drop(planId) }),
  };
};
