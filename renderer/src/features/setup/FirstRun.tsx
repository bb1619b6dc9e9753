/**
 * First run: try everything with the built-in sandbox (simulated, labelled as such everywhere), or
 * connect the real service. Either way the next step is a study. Or join a team's study on a server.
 */
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { ApiVersion } from '../../../../shared/api/vocabulary';
import { SimulatedBadge } from '../../components/Badges';
import { ErrorNotice } from '../../components/Feedback';
import { SelectField } from '../../components/Form';
import { PageHeader } from '../../components/Page';
import { useAction } from '../../lib/api';
import { ConnectForm } from './ConnectForm';
import { TeamConnectForm } from '../team/TeamConnectForm';
import { paths } from '../../app/paths';

export const FirstRun = () => {
  const [, navigate] = useLocation();
  const [version, setVersion] = useState<ApiVersion>('v1.3');
  const sandbox = useAction('profiles.useSandbox');
  const next = (profileId: number) => navigate(paths.newStudy(profileId));
  return (
    <div className="page">
      <PageHeader
        title="Welcome to Voicescope"
        subtitle="Choose where recordings are analysed. You can add the other later in Settings."
      />
      <div className="cards">
        <section className="card" aria-labelledby="try-sandbox">
          <h2 id="try-sandbox">
            Try it with the built-in sandbox <SimulatedBadge />
          </h2>
          <p>
            A simulated analysis service that runs on this computer. It follows the real service's rules
            (formats, limits, credits, errors) but <strong>every result it returns is simulated</strong>, and
            Voicescope marks it so on every screen and in every export. No credits, no network.
          </p>
          <SelectField
            label="API version to simulate"
            value={version}
            onChange={(e) => setVersion(e.target.value as ApiVersion)}
          >
            <option value="v1.3">v1.3</option>
            <option value="v1.2">v1.2</option>
          </SelectField>
          <button
            type="button"
            className="primary"
            disabled={sandbox.pending}
            onClick={async () => {
              const r = await sandbox.run({ apiVersion: version });
              if (r.ok) next(r.value.id);
            }}
          >
            {sandbox.pending ? 'Starting the sandbox…' : 'Use the sandbox'}
          </button>
          <ErrorNotice error={sandbox.error} />
        </section>
        <section className="card" aria-labelledby="connect-service">
          <h2 id="connect-service">Connect your Speech Analysis service</h2>
          <p>
            Uploads to the real service cost credits. Test the connection first; nothing is sent until you
            start a batch.
          </p>
          <ConnectForm onCreated={(p) => next(p.id)} />
        </section>
        <section className="card" aria-labelledby="join-team">
          <h2 id="join-team">Join your team's study</h2>
          <p>
            Your team keeps its study on a PostgreSQL server, and your administrator gave you a login. The
            server decides what you see and do: your sites, your role.
          </p>
          <TeamConnectForm />
        </section>
      </div>
    </div>
  );
};
