/**
 * Settings: the study database the window works on. On this computer's own study: connect to a team
 * study. On a team study: its address, the member's login, role and what the role allows, and the way
 * back to this computer's own study.
 */
import { useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import type { TeamSession } from '../../../../shared/contract/team.contract';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { useAction } from '../../lib/api';
import { TEAM_ROLE_LABEL, TEAM_WORK_LABEL } from '../../lib/labels';
import { TeamConnectForm } from './TeamConnectForm';
import { useTeamSession } from './team-session';

/** The address as the researcher typed it (its certificate file's path unescaped); it never holds a password. */
const readable = (address: string | null): string => {
  if (address === null) return '';
  try {
    return decodeURIComponent(address);
  } catch {
    return address;
  }
};

const OnTeamStudy = ({ s }: { s: TeamSession }) => {
  const back = useAction('team.useLocalStudy');
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  return (
    <>
      <dl className="facts-list">
        <dt>Database</dt>
        <dd>
          <code className="wrap-anywhere">{readable(s.address)}</code>
        </dd>
        <dt>Your login</dt>
        <dd>{s.login}</dd>
        <dt>Your role</dt>
        <dd>{s.role ? TEAM_ROLE_LABEL[s.role] : 'none'}</dd>
        <dt>Your role may</dt>
        <dd>
          {s.allowed.length > 0
            ? s.allowed.map((w) => TEAM_WORK_LABEL[w]).join('; ')
            : 'read the data of your sites, and change nothing'}
        </dd>
      </dl>
      <div className="row">
        <button
          type="button"
          disabled={back.pending}
          onClick={async () => {
            const r = await back.run({});
            if (!r.ok) return;
            await qc.resetQueries();
            navigate('/');
          }}
        >
          {back.pending ? 'Switching…' : "Work on this computer's own study"}
        </button>
      </div>
      <ErrorNotice error={back.error} />
    </>
  );
};

export const TeamStudySection = () => {
  const session = useTeamSession();
  return (
    <Section title="Team study">
      <QueryView q={session}>
        {(s) => (
          <>
            {s.problem && (
              <Notice tone="warn" title="The team study could not be opened">
                {s.problem}
              </Notice>
            )}
            {s.database === 'team' ? (
              <OnTeamStudy s={s} />
            ) : (
              <>
                <p>
                  This window works on this computer's own study. To work on a study your team shares on a
                  PostgreSQL server, connect with your own login; the server decides what you may see and do.
                </p>
                <TeamConnectForm />
              </>
            )}
          </>
        )}
      </QueryView>
    </Section>
  );
};
