/**
 * A study's local data: what Voicescope keeps for it, a consistent archive (database copy of this
 * study only, and its settings) into the workspace or a chosen folder, and deletion for good after the
 * researcher types the study's name. Deletion is refused while the study is sending.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Redirect, useLocation, useParams } from 'wouter';
import type { DeleteReportSchema } from '../../../../shared/contract/studies.contract';
import type { z } from 'zod';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { PageHeader, Section } from '../../components/Page';
import { useAction, useCall, useRpc } from '../../lib/api';
import { agree, fmtBytes, fmtDateTime, fmtInt, plural } from '../../lib/format';
import { paths } from '../../app/paths';

const Archive = ({
  studyId,
  nativeDialogs,
  archivesDir,
}: {
  studyId: number;
  nativeDialogs: boolean;
  archivesDir: string;
}) => {
  const rpc = useRpc();
  const archive = useAction('studies.archive');
  const [where, setWhere] = useState<'workspace' | 'folder'>('workspace');
  const [folder, setFolder] = useState('');
  const choose = async () => {
    const r = await rpc.call('files.pick', { purpose: 'export-folder' });
    if (r.ok && r.value.paths[0]) setFolder(r.value.paths[0]);
  };
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void archive.run({ studyId, ...(where === 'folder' ? { outDir: folder } : {}) });
      }}
    >
      <p>
        A consistent copy of this study's database (this study only: its participants, recordings, results,
        event log and audit entries) and a file of its settings, taken while Voicescope keeps working. API
        keys are never archived.
      </p>
      <fieldset className="choice">
        <legend>Where to put the archive</legend>
        <label>
          <input
            type="radio"
            name="where"
            checked={where === 'workspace'}
            onChange={() => setWhere('workspace')}
          />{' '}
          In the workspace's archives folder <code className="path">{archivesDir}</code>
        </label>
        <label>
          <input type="radio" name="where" checked={where === 'folder'} onChange={() => setWhere('folder')} />{' '}
          In another folder
        </label>
      </fieldset>
      {where === 'folder' && (
        <div className="row">
          <TextField
            label="Folder"
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            required
            placeholder="/path/to/folder"
            hint="An existing folder, for example on an encrypted drive."
          />
          {nativeDialogs && (
            <button type="button" onClick={() => void choose()}>
              Choose…
            </button>
          )}
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={archive.pending}>
          {archive.pending ? 'Archiving…' : 'Archive now'}
        </button>
      </div>
      {archive.value && (
        <Notice tone="ok" title="Archived">
          <p>
            {plural(archive.value.participants, 'participant')} and{' '}
            {plural(archive.value.recordings, 'recording')} written to{' '}
            <code className="path">{archive.value.folder}</code>:
          </p>
          <ul>
            {archive.value.files.map((f) => (
              <li key={f.name}>
                {f.name} ({fmtBytes(f.bytes)})
              </li>
            ))}
          </ul>
          <p className="muted">SHA256SUMS lists a checksum of each file.</p>
        </Notice>
      )}
      <ErrorNotice error={archive.error} />
    </form>
  );
};

type DeleteReport = z.infer<typeof DeleteReportSchema>;

const Delete = ({
  studyId,
  name,
  running,
  inFlight,
  onDeleted,
}: {
  studyId: number;
  name: string;
  running: number;
  inFlight: number;
  onDeleted: (r: DeleteReport) => void;
}) => {
  const del = useAction('studies.delete');
  const [typed, setTyped] = useState('');
  const blocked = running > 0 || inFlight > 0;
  return (
    <form
      className="form"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await del.run({ studyId, confirmName: typed });
        if (r.ok) onDeleted(r.value);
      }}
    >
      <div className="prose">
        <p>
          Deleting removes from this computer: the study, its participants and their codes, its recordings'
          records, analyses and values, the converted copies Voicescope made and the study's exports in the
          workspace.
        </p>
        <p>
          It keeps: your original recordings (Voicescope never changes them), archives you made, and the audit
          and event logs (dates, counts and ids, no participant codes). Recordings already sent stay with the
          service; it offers no way to delete them, so ask the service provider.
        </p>
      </div>
      {blocked && (
        <Notice tone="warn" title="This study is sending recordings">
          <p>
            {running > 0 ? (
              <>
                A batch is running. Cancel it on the <Link href={paths.study(studyId).batches}>Batches</Link>{' '}
                screen first.
              </>
            ) : (
              <>
                {plural(inFlight, 'upload')} still {agree(inFlight, 'waits', 'wait')} for the service's
                answer; try again in a minute.
              </>
            )}
          </p>
        </Notice>
      )}
      <TextField
        label={`Type the study's name to confirm: ${name}`}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        autoComplete="off"
        spellCheck={false}
        disabled={blocked}
      />
      <div className="row">
        <button type="submit" className="danger" disabled={blocked || del.pending || typed.trim() !== name}>
          {del.pending ? 'Deleting…' : 'Delete this study for good'}
        </button>
      </div>
      <ErrorNotice error={del.error} />
    </form>
  );
};

/** The last deletion's report, for the screen shown after it (outside the deleted study's pages). */
let lastDeleted: DeleteReport | null = null;

export const DeletedStudyPage = () => {
  const deleted = lastDeleted;
  if (!deleted) return <Redirect to={paths.studies} />;
  return (
    <div className="page">
      <PageHeader title="Study deleted" />
      <Notice tone="ok" title={`“${deleted.name}” was deleted`}>
        <p>
          {plural(deleted.participants, 'participant')}, {plural(deleted.recordings, 'recording')},{' '}
          {plural(deleted.removedFiles, 'converted copy', 'converted copies')} and{' '}
          {plural(deleted.removedExportFolders, 'export folder')} were removed. The audit log records the
          deletion.
        </p>
      </Notice>
      {deleted.leftBehind.length > 0 && (
        <Notice tone="warn" title="Some files could not be removed">
          <p>Remove these yourself (another program may have them open):</p>
          <ul>
            {deleted.leftBehind.map((p) => (
              <li key={p}>
                <code className="path">{p}</code>
              </li>
            ))}
          </ul>
        </Notice>
      )}
      <p>
        <Link href={paths.studies}>Back to the studies</Link> · <Link href={paths.audit}>Audit log</Link>
      </p>
    </div>
  );
};

export const StudyDataPage = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const [, navigate] = useLocation();
  const qc = useQueryClient();
  const summary = useCall('studies.dataSummary', { studyId });
  const info = useCall('app.info', {});
  const privacy = useCall('privacy.settings', {});
  const onDeleted = (r: DeleteReport) => {
    lastDeleted = r;
    // The study's cached screens must not show it any more.
    qc.removeQueries({
      predicate: (q) => new RegExp(`"studyId":${studyId}[,}]`).test(JSON.stringify(q.queryKey[1] ?? {})),
    });
    navigate(paths.deletedStudy);
  };
  return (
    <div className="page">
      <PageHeader
        title="Archive and delete"
        {...(summary.data ? { subtitle: <>Study “{summary.data.name}”: its data on this computer.</> } : {})}
      />
      <QueryView q={summary}>
        {(s) => (
          <>
            <Section title="What Voicescope keeps for this study">
              <dl className="facts-list">
                <dt>Participants</dt>
                <dd>{fmtInt(s.participants)}</dd>
                <dt>Recordings</dt>
                <dd>{fmtInt(s.recordings)}</dd>
                <dt>Indicator values</dt>
                <dd>{fmtInt(s.measureValues)}</dd>
                <dt>Converted copies</dt>
                <dd>{fmtInt(s.convertedFiles)}</dd>
                <dt>Exports in the workspace</dt>
                <dd>{fmtInt(s.exportFolders)}</dd>
                <dt>Files on disk</dt>
                <dd>{fmtBytes(s.localBytes)}</dd>
                <dt>Last archived</dt>
                <dd>{s.lastArchivedAt ? fmtDateTime(s.lastArchivedAt) : 'never'}</dd>
              </dl>
            </Section>
            <Section title="Archive">
              {info.data && privacy.data ? (
                <Archive
                  studyId={studyId}
                  nativeDialogs={info.data.capabilities.nativeDialogs}
                  archivesDir={privacy.data.archivesDir}
                />
              ) : (
                <ErrorNotice error={info.error?.appError ?? privacy.error?.appError} />
              )}
            </Section>
            <Section title="Delete this study">
              <Delete
                studyId={studyId}
                name={s.name}
                running={s.runningBatches}
                inFlight={s.uploadsInFlight}
                onDeleted={onDeleted}
              />
            </Section>
          </>
        )}
      </QueryView>
    </div>
  );
};
