/**
 * Privacy: how API keys are kept, what the logs hold and diagnostic mode, what is sent to the service,
 * and the way to the audit log and to each study's archive and delete screen.
 */
import { Link } from 'wouter';
import { Badge } from '../../components/Badges';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { Checkbox } from '../../components/Form';
import { PageHeader, Section } from '../../components/Page';
import { useAction, useCall } from '../../lib/api';
import { fmtDateTime, fmtInt } from '../../lib/format';
import { paths } from '../../app/paths';

const Diagnostic = () => {
  const settings = useCall('privacy.settings', {});
  const set = useAction('privacy.setDiagnostic');
  return (
    <QueryView q={settings}>
      {(s) => (
        <>
          <p>
            Voicescope writes what it does to a log file on this computer:{' '}
            <code className="path">{s.logsDir}</code>. The log holds no audio and no API keys, and replaces
            participant codes with “[participant]”.
          </p>
          <Checkbox
            label="Diagnostic mode: keep participant codes in the log"
            checked={s.diagnostic.on}
            disabled={set.pending}
            onChange={(on) => void set.run({ on })}
            hint="Only to trace one participant's problem with support. API keys stay out of the log either way. Switching it on or off is written to the audit log."
          />
          {s.diagnostic.on && (
            <Notice tone="warn" title="Diagnostic mode is on">
              <p>
                Since {fmtDateTime(s.diagnostic.since)}, the log keeps participant codes. Switch it off when
                support has what they need; lines written meanwhile stay in the log file.
              </p>
            </Notice>
          )}
          <ErrorNotice error={set.error} />
        </>
      )}
    </QueryView>
  );
};

/** Whether the audit log's hash chain holds, checked each time the page opens. */
const AuditChain = () => {
  const check = useCall('audit.verify', {}, { staleTime: 0 });
  return (
    <QueryView q={check}>
      {(v) =>
        v.holds ? (
          <p>
            <Badge tone="ok">Intact</Badge>{' '}
            {v.entries === 0
              ? 'Nothing has been recorded yet.'
              : `Checked just now: all ${fmtInt(v.entries)} ${v.entries === 1 ? 'entry fits' : 'entries fit'} the chain, so none was changed or removed.`}
          </p>
        ) : (
          <Notice tone="bad" title="The audit log has been altered">
            <p>{v.message}</p>
            <p>{v.action}</p>
          </Notice>
        )
      }
    </QueryView>
  );
};

export const PrivacyPage = () => {
  const info = useCall('app.info', {});
  const studies = useCall('studies.list', {});
  return (
    <div className="page">
      <PageHeader
        title="Privacy and audit"
        subtitle="Where your API keys and study data are kept, what leaves this computer, and what is recorded."
      />
      <Section title="API keys">
        <QueryView q={info}>
          {(i) => (
            <>
              <p>
                {i.keyStorage.protectedByOs ? (
                  <Badge tone="ok">Protected by the operating system</Badge>
                ) : (
                  <Badge tone="warn">Not protected by the operating system</Badge>
                )}
              </p>
              <p>{i.keyStorage.notice}</p>
              <p className="muted">
                Keys are never stored in the study database, logs, exports, archives or crash reports, and
                never shown again once saved. Replace or remove a key under{' '}
                <Link href={paths.settings}>Settings</Link>.
              </p>
            </>
          )}
        </QueryView>
      </Section>
      <Section title="What is sent to the service">
        <p>
          For each recording: the participant's service account number, the recording time, the analyses
          chosen and the audio. Never participant codes, names, file names or folders. Participant codes are
          your pseudonyms and stay on this computer.
        </p>
      </Section>
      <Section title="Logs">
        <Diagnostic />
      </Section>
      <Section
        title="Audit log"
        actions={
          <Link className="button" href={paths.audit}>
            Open the audit log
          </Link>
        }
      >
        <p>
          Exports, API key changes, archives, deletions and diagnostic logging are recorded with when and
          which study or profile. Entries cannot be changed or removed: each one carries a fingerprint of the
          one before it, so a change made to the database behind Voicescope's back shows here.
        </p>
        <AuditChain />
      </Section>
      <Section title="Archive or delete a study">
        <QueryView q={studies}>
          {(list) =>
            list.length === 0 ? (
              <p className="muted">There are no studies.</p>
            ) : (
              <ul className="plain-list">
                {list.map((s) => (
                  <li key={s.id}>
                    <Link href={paths.study(s.id).data}>{s.name}: archive and delete</Link>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryView>
      </Section>
    </div>
  );
};
