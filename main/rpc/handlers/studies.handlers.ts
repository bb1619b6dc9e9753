/**
 * Studies, and a study's local data (summary, archive, delete). Refusals come back as values in the
 * researcher's words; nothing returned here holds an API key.
 */
import type { studiesContract, StudyView } from '../../../shared/contract/studies.contract';
import { err, ok, type Result } from '../../../shared/result';
import { appError, type AppError } from '../../../shared/rpc';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

export const studiesHandlers = (d: HostDeps): HandlersOf<typeof studiesContract> => {
  const { service } = d;
  const one = async (studyId: number): Promise<Result<StudyView, AppError>> => {
    const [v] = await service.studyViews(d.now(), d.sandbox.profileIds(), studyId);
    return v ? ok(v) : notFound('study');
  };
  return {
    'studies.list': async () => ok(await service.studyViews(d.now(), d.sandbox.profileIds())),
    'studies.get': ({ studyId }) => one(studyId),
    async 'studies.create'({ name, profileId, sessionIntervalDays }) {
      const created = await service.createStudy({ name, profileId });
      if (!created.ok) return fromProblem(created.error, 'CONFLICT');
      if (sessionIntervalDays !== undefined)
        service.setStudyFields(created.value.id, { sessionIntervalDays });
      return one(created.value.id);
    },
    'studies.update'({ studyId, name, sessionIntervalDays }) {
      const r = service.setStudyFields(studyId, { name, sessionIntervalDays });
      if (r === 'not_found') return notFound('study');
      if (r === 'name_taken')
        return err(appError('CONFLICT', `A study named "${name}" already exists.`, 'Choose another name.'));
      return one(studyId);
    },
    async 'studies.dataSummary'({ studyId }) {
      const s = await service.studyDataSummary(studyId);
      return s ? ok(s) : notFound('study');
    },
    async 'studies.archive'({ studyId, outDir }) {
      const r = await service.archiveStudy({
        studyId,
        ...(outDir !== undefined ? { outDir } : {}),
        appVersion: d.info.version,
        now: d.now,
      });
      return r.ok ? ok(r.value) : err(appError('REFUSED', r.error.message, r.error.action));
    },
    async 'studies.delete'({ studyId, confirmName }) {
      const r = await service.deleteStudy({ studyId, confirmName, now: d.now });
      return r.ok ? ok(r.value) : err(appError(r.error.code, r.error.message, r.error.action));
    },
  };
};
