/**
 * "Create missing accounts": one request to the service per participant without an account, sent only
 * after the researcher confirms; then what was created, what failed and why, and what was not tried.
 */
import { useState } from 'react';
import { Badge } from '../../components/Badges';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { useAction, useCall } from '../../lib/api';
import { fmtDateTime, plural } from '../../lib/format';

/**
 * Participants whose account request has an unknown outcome ("account uncertain"): what is known, and
 * the researcher's decision: ask again, leave without an account, or link an account id found by
 * other means (on the participant's page).
 */
export const UncertainAccounts = ({ studyId }: { studyId: number }) => {
  const list = useCall('participants.uncertainAccounts', { studyId });
  const resolve = useAction('participants.resolveUncertainAccount');
  const open = (list.data ?? []).filter((a) => a.resolution === null);
  if (open.length === 0) return null;
  return (
    <Notice tone="warn" title={`Account uncertain: ${plural(open.length, 'participant')}`}>
      <p>
        The service may have created these accounts, but its answer was lost. Their files are not sent until
        you decide. Asking again may create a second account; if you find the account id (e.g. from the
        service's support), link it on the participant's page instead.
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th scope="col">Participant</th>
            <th scope="col">Asked</th>
            <th scope="col">What happened</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {open.map((a) => (
            <tr key={a.participantId}>
              <td>{a.participantCode}</td>
              <td>{fmtDateTime(a.requestedAt)}</td>
              <td>{a.reason}</td>
              <td className="row">
                <button
                  type="button"
                  disabled={resolve.pending}
                  onClick={() => void resolve.run({ participantId: a.participantId, decision: 'retry' })}
                >
                  Ask again
                </button>
                <button
                  type="button"
                  disabled={resolve.pending}
                  onClick={() => void resolve.run({ participantId: a.participantId, decision: 'leave' })}
                >
                  Leave without account
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNotice error={resolve.error} />
    </Notice>
  );
};

export const CreateAccounts = ({ studyId }: { studyId: number }) => {
  const missing = useCall('participants.page', {
    studyId,
    filter: 'no_account',
    sort: 'code',
    dir: 'asc',
    offset: 0,
    limit: 1,
  });
  const create = useAction('participants.createAccounts');
  const [confirming, setConfirming] = useState(false);
  const [asked, setAsked] = useState(0);
  const n = missing.data?.total ?? 0;
  const report = create.value;

  return (
    <div className="create-accounts">
      {!confirming ? (
        <button
          type="button"
          disabled={n === 0 || create.pending}
          onClick={() => {
            create.reset();
            setConfirming(true);
          }}
        >
          Create missing accounts{missing.data ? ` (${n})` : ''}
        </button>
      ) : (
        <div className="notice notice-warn" role="group" aria-label="Confirm account creation">
          <p className="notice-title">Create {plural(n, 'service account')}?</p>
          <p>
            Voicescope sends one request to the service for each participant without an account (
            {plural(n, 'request')}). With API v1.3 each account may count against your organisation. Their
            files waiting for an account are queued afterwards.
          </p>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={create.pending}
              onClick={() => {
                setAsked(n);
                setConfirming(false);
                void create.run({ studyId });
              }}
            >
              Create {plural(n, 'account')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {create.pending && (
        <p role="status" className="muted">
          Creating accounts… one request each.
        </p>
      )}
      <ErrorNotice error={create.error} title="No accounts were created" />
      {report && (
        <Notice
          tone={report.failed.length ? 'warn' : 'ok'}
          title={`Created ${plural(report.created.length, 'account')}${report.failed.length ? `, ${report.failed.length} failed` : ''}`}
        >
          {report.failed.length > 0 && (
            <table className="table compact">
              <caption>Participants still without an account</caption>
              <thead>
                <tr>
                  <th scope="col">Participant</th>
                  <th scope="col">What happened</th>
                  <th scope="col">What to do</th>
                </tr>
              </thead>
              <tbody>
                {report.failed.map((f) => (
                  <tr key={f.code}>
                    <th scope="row">{f.code}</th>
                    <td>
                      {f.summary}
                      {f.error.serviceMessage ? ` The service said: “${f.error.serviceMessage}”` : ''}
                    </td>
                    <td>{f.action}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {asked - report.created.length - report.failed.length - report.uncertain.length > 0 && (
            <p>
              {plural(
                asked - report.created.length - report.failed.length - report.uncertain.length,
                'participant',
              )}{' '}
              were not tried: the failure applies to every request, or they have no file to send. Fix it, then
              create the missing accounts again.
            </p>
          )}
          {report.uncertain.length > 0 && (
            <p>
              <Badge tone="warn">Decide</Badge> For {plural(report.uncertain.length, 'participant')} the
              service's answer was lost: it may have created the account. Voicescope does not ask again on its
              own (a second account would split their results); decide for each below.
            </p>
          )}
        </Notice>
      )}
    </div>
  );
};
