/**
 * What in a batch needs the researcher, and what they can do about it:
 * - uploads whose outcome is unknown, each with its reason, the usage counters read before and after
 *   it, and the three decisions, each explained (Voicescope never re-sends one on its own);
 * - "retry what is safe": refused uploads that cost nothing and late results, said before it is done;
 * - files refused (locally or by the service) with what happened and what to do;
 * - duplicates held back, each of which can be sent anyway;
 * - each refused file or held duplicate can be dismissed with a reason, and the dismissed ones are listed
 *   with who, when and why, with Undo (DismissItem.tsx).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link } from 'wouter';
import type { Usage } from '../../../../shared/api/domain';
import type { UncertainUpload } from '../../../../shared/study';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { UploadStateBadge } from '../../components/UploadStateBadge';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { useAction, useCall, useEvent } from '../../lib/api';
import { agree, fmtInt, plural } from '../../lib/format';
import { paths } from '../../app/paths';
import { DismissButton, DismissedItems } from './DismissItem';

const SHOWN = 50;

/** How many of a batch's items need the researcher (its files under "needs you", dismissed ones left out). */
export const useNeedsYouCount = (studyId: number, batchId: number) =>
  useCall('recordings.page', {
    studyId,
    batchId,
    filter: 'needs_attention',
    sort: 'id',
    dir: 'asc',
    offset: 0,
    limit: 1,
  });

const fileName = (p: string) => p.split(/[\\/]/).at(-1) ?? p;

const UsageCell = ({ u }: { u: Usage | null }) => {
  if (!u) return <td className="muted">not read</td>;
  const d = u.detail;
  return (
    <td>
      <strong>{fmtInt(u.uploadsRemaining)}</strong> uploads left
      {d.kind === 'credits' ? (
        <span className="muted small">
          {' '}
          (trial {fmtInt(d.trialRemaining)}, included {fmtInt(d.includedRemaining)}, purchased{' '}
          {fmtInt(d.purchasedRemaining)})
        </span>
      ) : (
        <span className="muted small">
          {' '}
          ({fmtInt(d.used)} of {fmtInt(d.limit)} used this period)
        </span>
      )}
    </td>
  );
};

/** What the two readings suggest, with the caveat that other uploads move the same counter. */
const reading = (u: UncertainUpload): string => {
  if (!u.usageBefore || !u.usageAfter)
    return 'The usage could not be read both before and after, so the counters cannot help here; check the service’s records if you can.';
  const fell = u.usageBefore.uploadsRemaining - u.usageAfter.uploadsRemaining;
  const tail =
    ' Other uploads sent at the same time move the same counter, so read this as a hint, not proof.';
  if (fell <= 0)
    return `The counter did not move: the service most likely did not receive this upload, and sending it again is probably charged once.${tail}`;
  return `The counter fell by ${fmtInt(fell)} between the two readings: the service may well have received and charged this upload.${tail}`;
};

const DECISIONS = [
  {
    decision: 'queue_again',
    label: 'Send it again',
    tone: 'primary',
    explain:
      'Uploads it once more. If the service did receive it, you are charged twice and it is analysed twice.',
  },
  {
    decision: 'cancel',
    label: 'Give it up',
    tone: '',
    explain:
      'Not sent again. If the service did receive it, that credit is spent and its results are not collected.',
  },
  {
    decision: 'mark_uploaded_elsewhere',
    label: 'It was uploaded elsewhere',
    tone: '',
    explain:
      'You sent this file another way (or know the service has it); Voicescope does not send it again.',
  },
] as const;

const UncertainCard = ({
  u,
  studyId,
  simulated,
}: {
  u: UncertainUpload;
  studyId: number;
  simulated: boolean;
}) => {
  const decide = useAction('recordings.resolveUncertain');
  const name = fileName(u.path);
  return (
    <li className="card uncertain" aria-labelledby={`uncertain-${u.recordingId}`}>
      <p className="card-title" id={`uncertain-${u.recordingId}`}>
        <Link href={paths.study(studyId).recording(u.recordingId)}>{name}</Link>{' '}
        <span className="muted">· participant {u.participantCode}</span>{' '}
        <Badge tone="bad">Outcome unknown</Badge>
      </p>
      <p>{u.reason}</p>
      <table className="table compact usage-compare">
        <caption>
          Uploads left on the service, read before and after this upload {simulated && <SimulatedBadge />}
        </caption>
        <tbody>
          <tr>
            <th scope="row">Before</th>
            <UsageCell u={u.usageBefore} />
          </tr>
          <tr>
            <th scope="row">After</th>
            <UsageCell u={u.usageAfter} />
          </tr>
        </tbody>
      </table>
      <p className="small">{reading(u)}</p>
      <ul className="decisions">
        {DECISIONS.map((d) => (
          <li key={d.decision}>
            <button
              type="button"
              className={d.tone}
              disabled={decide.pending}
              aria-describedby={`d-${u.recordingId}-${d.decision}`}
              onClick={() => void decide.run({ recordingId: u.recordingId, decision: d.decision })}
            >
              {d.label}
            </button>
            <span id={`d-${u.recordingId}-${d.decision}`} className="small">
              {d.explain}
            </span>
          </li>
        ))}
      </ul>
      <ErrorNotice error={decide.error} />
      {decide.value && !decide.value.done && (
        <p className="muted small">This upload was already decided (perhaps in another window).</p>
      )}
    </li>
  );
};

const RetrySafe = ({ studyId, batchId }: { studyId: number; batchId: number }) => {
  const safe = useCall('recordings.retryable', { studyId, batchId });
  const retry = useAction('recordings.retry');
  if (safe.error) return <ErrorNotice error={safe.error.appError} onRetry={() => void safe.refetch()} />;
  const s = safe.data;
  if (!s || (s.recordingIds.length === 0 && !retry.value)) return null;
  return (
    <div className="retry-safe">
      <h3>Retry what is safe</h3>
      {s.recordingIds.length > 0 ? (
        <>
          <p>
            {s.rejected > 0 && (
              <>
                {plural(s.rejected, 'upload')} the service refused without charging{' '}
                {agree(s.rejected, 'is', 'are')} sent again.{' '}
              </>
            )}
            {s.lateAnalyses > 0 && (
              <>
                {plural(s.lateAnalyses, 'recording')} whose results are late{' '}
                {agree(s.lateAnalyses, 'is', 'are')} asked for again now.{' '}
              </>
            )}
            Uploads whose outcome is unknown are never included: decide on each of them above.
          </p>
          <button
            type="button"
            className="primary"
            disabled={retry.pending}
            onClick={() => void retry.run({ recordingIds: s.recordingIds })}
          >
            Retry what is safe ({fmtInt(s.recordingIds.length)})
          </button>
        </>
      ) : null}
      {retry.value && (
        <p role="status">
          {plural(retry.value.retried, 'file')} retried
          {retry.value.skipped
            ? `; ${fmtInt(retry.value.skipped)} left as they were (no longer safe to retry)`
            : ''}
          .
        </p>
      )}
      <ErrorNotice error={retry.error} />
    </div>
  );
};

const Refused = ({ studyId, batchId }: { studyId: number; batchId: number }) => {
  const q = useCall('recordings.page', {
    studyId,
    batchId,
    filter: 'refused',
    sort: 'file',
    dir: 'asc',
    offset: 0,
    limit: SHOWN,
  });
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.total === 0) return null;
  return (
    <div>
      <h3>
        {q.data.rows.some((r) => r.verdictStatus === 'borderline' && r.uploadState === 'refused_locally')
          ? 'Refused or held'
          : 'Refused'}{' '}
        ({fmtInt(q.data.total)})
      </h3>
      <table className="table compact refused">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Participant</th>
            <th scope="col">What happened</th>
            <th scope="col">What to do</th>
          </tr>
        </thead>
        <tbody>
          {q.data.rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                <Link href={paths.study(studyId).recording(r.id)}>{r.fileName}</Link>{' '}
                <UploadStateBadge r={r} />
              </th>
              <td>{r.participantCode}</td>
              <td>{r.problem?.summary ?? '—'}</td>
              <td>
                {r.problem?.action ?? '—'}
                {r.canRetry ? ' Safe to retry (below).' : ''}{' '}
                <DismissButton recordingId={r.id} fileName={r.fileName} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {q.data.total > SHOWN && (
        <p className="muted small">
          The first {SHOWN} are listed; the files table below holds all of them (filter “Refused”).
        </p>
      )}
    </div>
  );
};

const DuplicateRow = ({ r }: { r: { id: number; fileName: string; participantCode: string } }) => {
  const insist = useAction('recordings.insistDuplicate');
  return (
    <li>
      <span>
        <strong>{r.fileName}</strong> <span className="muted">· participant {r.participantCode}</span>
      </span>
      <button type="button" disabled={insist.pending} onClick={() => void insist.run({ recordingId: r.id })}>
        Send anyway
      </button>
      <DismissButton recordingId={r.id} fileName={r.fileName} />
      <ErrorNotice error={insist.error} />
    </li>
  );
};

const Duplicates = ({ studyId, batchId }: { studyId: number; batchId: number }) => {
  const q = useCall('recordings.page', {
    studyId,
    batchId,
    filter: 'duplicates',
    sort: 'file',
    dir: 'asc',
    offset: 0,
    limit: SHOWN,
  });
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.total === 0) return null;
  return (
    <div>
      <h3>Duplicates held back ({fmtInt(q.data.total)})</h3>
      <p className="hint">
        The same audio is already in the study for the same participant. Send one anyway only if it really is
        a different session: it costs a credit.
      </p>
      <ul className="duplicate-list">
        {q.data.rows.map((r) => (
          <DuplicateRow key={r.id} r={r} />
        ))}
      </ul>
      {q.data.total > SHOWN && <p className="muted small">The first {SHOWN} are listed.</p>}
    </div>
  );
};

export const NeedsYou = ({
  studyId,
  batchId,
  simulated,
  failedAnalyses,
}: {
  studyId: number;
  batchId: number;
  simulated: boolean;
  failedAnalyses: number;
}) => {
  const qc = useQueryClient();
  // EngineRefresh does not know this screen's "retry what is safe" figure: refresh it when files change.
  useEvent(
    'engine',
    useCallback(
      (e) => {
        if (e.type === 'recordings-changed' && e.studyId === studyId)
          void qc.invalidateQueries({ queryKey: ['recordings.retryable'] });
      },
      [qc, studyId],
    ),
  );
  const uncertain = useCall('recordings.uncertain', { studyId, batchId });
  const attention = useNeedsYouCount(studyId, batchId);
  const nothing = attention.data?.total === 0;
  return (
    <Section title="Needs you" id="needs-you">
      {uncertain.error && (
        <ErrorNotice error={uncertain.error.appError} onRetry={() => void uncertain.refetch()} />
      )}
      {uncertain.data && uncertain.data.length > 0 && (
        <div>
          <h3>Outcome unknown ({fmtInt(uncertain.data.length)})</h3>
          <p>
            The answer to {uncertain.data.length === 1 ? 'this upload' : 'these uploads'} was lost, so
            Voicescope cannot tell whether the service received {uncertain.data.length === 1 ? 'it' : 'them'}{' '}
            (and charged a credit). It never sends {uncertain.data.length === 1 ? 'one' : 'them'} again on its
            own: decide for each.
          </p>
          <ul className="uncertain-list">
            {uncertain.data.slice(0, SHOWN).map((u) => (
              <UncertainCard key={u.recordingId} u={u} studyId={studyId} simulated={simulated} />
            ))}
          </ul>
          {uncertain.data.length > SHOWN && (
            <p className="muted small">
              {plural(uncertain.data.length - SHOWN, 'more upload')} below these; decide on these first.
            </p>
          )}
        </div>
      )}
      <RetrySafe studyId={studyId} batchId={batchId} />
      <Refused studyId={studyId} batchId={batchId} />
      <Duplicates studyId={studyId} batchId={batchId} />
      {failedAnalyses > 0 && (
        <Notice tone="warn">
          {plural(failedAnalyses, 'analysis', 'analyses')} failed on the service (it gives no reason). Check
          those recordings' audio; the files table below shows them under “Need you”.
        </Notice>
      )}
      <DismissedItems studyId={studyId} batchId={batchId} />
      {nothing && (uncertain.data?.length ?? 0) === 0 && (
        <p className="ok-text">Nothing in this batch needs you.</p>
      )}
    </Section>
  );
};
