/** A new study: its name, the service profile its recordings go to, and the expected interval between sessions. */
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { SimulatedBadge } from '../../components/Badges';
import { Empty, ErrorNotice, QueryView } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Form';
import { PageHeader } from '../../components/Page';
import { useAction, useCall } from '../../lib/api';
import { paths } from '../../app/paths';
import { serviceName } from '../../lib/labels';

export const NewStudyPage = () => {
  const params = useParams<{ profileId?: string }>();
  const profiles = useCall('profiles.list', {});
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [profileId, setProfileId] = useState<number | null>(
    params.profileId ? Number(params.profileId) : null,
  );
  const [interval, setInterval] = useState(7);
  const create = useAction('studies.create');
  return (
    <div className="page narrow">
      <PageHeader title="New study" />
      <QueryView q={profiles}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No service profile yet">
              <Link href={paths.setup}>Set up the sandbox or your service first</Link>.
            </Empty>
          ) : (
            <form
              className="form"
              onSubmit={async (e) => {
                e.preventDefault();
                const r = await create.run({
                  name,
                  profileId: profileId ?? list[0]!.id,
                  sessionIntervalDays: interval,
                });
                if (r.ok) navigate(paths.study(r.value.id).overview);
              }}
            >
              <TextField
                label="Study name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                maxLength={120}
                hint="For example “Voice biomarkers pilot 2026”. Participants are added by import or by hand."
              />
              <SelectField
                label="Service profile"
                value={profileId ?? list[0]!.id}
                onChange={(e) => setProfileId(Number(e.target.value))}
                hint="Where this study's recordings are analysed. One account per participant is created on that service."
              >
                {list.map((p) => (
                  <option key={p.id} value={p.id}>
                    {serviceName({ name: p.name, apiVersion: p.apiVersion, simulated: p.isSandbox })}
                  </option>
                ))}
              </SelectField>
              {list.find((p) => p.id === (profileId ?? list[0]!.id))?.isSandbox && (
                <p>
                  <SimulatedBadge long /> Results of this study will be simulated.
                </p>
              )}
              <TextField
                label="Days between sessions"
                type="number"
                min={1}
                max={365}
                value={interval}
                onChange={(e) => setInterval(Number(e.target.value))}
                hint="How often each participant is expected to record. Participants whose last recording is older are shown as overdue."
              />
              <div className="row">
                <button type="submit" className="primary" disabled={create.pending || !name.trim()}>
                  Create study
                </button>
              </div>
              <ErrorNotice error={create.error} title="The study was not created" />
            </form>
          )
        }
      </QueryView>
    </div>
  );
};
