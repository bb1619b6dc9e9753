/**
 * Settings: service profiles (test, replace or remove a key, add another), the poller and the queue
 * (within the specification's limits), and the built-in sandbox's behaviour for training.
 */
import { useState } from 'react';
import type { EngineSettings } from '../../../../shared/contract/settings.contract';
import type { ProfileView } from '../../../../shared/contract/profiles.contract';
import {
  MISBEHAVIOUR_TEXT,
  SANDBOX_MISBEHAVIOURS,
  SANDBOX_SCENARIOS,
} from '../../../../shared/contract/sandbox.contract';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { Checkbox, SelectField, TextField } from '../../components/Form';
import { PageHeader, Section } from '../../components/Page';
import { useAction, useCall } from '../../lib/api';
import { ClockLine, ConnectForm, UsageLine } from '../setup/ConnectForm';
import { serviceName } from '../../lib/labels';
import { plural } from '../../lib/format';
import { TeamStudySection } from '../team/TeamStudySection';
import { useMay } from '../team/team-session';

const ProfileCard = ({ p, mayChange }: { p: ProfileView; mayChange: boolean }) => {
  // A coordinator's workstation sends too: it keeps its own copy of the key (docs/team.md, set-up).
  const mayKeepKey = useMay('createAccounts');
  const test = useAction('profiles.test');
  const replace = useAction('profiles.replaceKey');
  const remove = useAction('profiles.removeKey');
  const [key, setKey] = useState('');
  const [editing, setEditing] = useState(false);
  return (
    <li className="card">
      <p className="card-title">
        {serviceName(p)} {p.isSandbox && !/simulated/i.test(p.name) && <SimulatedBadge />}
      </p>
      <p className="muted small">
        {p.baseUrl} · {plural(p.studies, 'study', 'studies')}
      </p>
      <p>{p.hasKey ? <>API key kept in {p.keyLocation}.</> : <Badge tone="warn">No API key</Badge>}</p>
      <div className="row">
        <button
          type="button"
          disabled={test.pending || !p.hasKey}
          onClick={() => void test.run({ profileId: p.id })}
        >
          {test.pending ? 'Testing…' : 'Test connection'}
        </button>
        {!p.isSandbox && (mayChange || mayKeepKey) && (
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            {p.hasKey ? 'Replace key' : 'Add key'}
          </button>
        )}
        {!p.isSandbox && p.hasKey && (mayChange || mayKeepKey) && (
          <button
            type="button"
            className="danger"
            disabled={remove.pending}
            onClick={() => {
              if (
                confirm(
                  `Remove the API key of “${p.name}”? Nothing can be sent or fetched with this profile until a key is added again.`,
                )
              )
                void remove.run({ profileId: p.id });
            }}
          >
            Remove key
          </button>
        )}
      </div>
      {editing && (
        <form
          className="form"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await replace.run({ profileId: p.id, apiKey: key });
            if (r.ok) {
              setKey('');
              setEditing(false);
            }
          }}
        >
          <TextField
            label="New API key"
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            required
            minLength={8}
          />
          <div className="row">
            <button type="submit" className="primary" disabled={replace.pending}>
              Save key
            </button>
          </div>
        </form>
      )}
      {test.value && (
        <Notice tone="ok">
          {test.value.ping} · <UsageLine usage={test.value.usage} />{' '}
          <ClockLine offsetSeconds={test.value.serviceClockOffsetSeconds} />
        </Notice>
      )}
      <ErrorNotice error={test.error ?? replace.error ?? remove.error} />
    </li>
  );
};

const EngineForm = ({ s, mayChange }: { s: EngineSettings; mayChange: boolean }) => {
  const [v, setV] = useState(s);
  const save = useAction('settings.save');
  const num = (k: keyof EngineSettings) => ({
    value: v[k],
    onChange: (e: { target: { value: string } }) => setV({ ...v, [k]: Number(e.target.value) }),
  });
  return (
    <form
      className="form grid-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await save.run(v);
        if (r.ok) setV(r.value);
      }}
    >
      <TextField
        label="First check after upload (s)"
        type="number"
        min={5}
        step="any"
        {...num('firstPollSeconds')}
        hint="Analyses take up to five minutes."
      />
      <TextField
        label="Then check every (s)"
        type="number"
        min={5}
        step="any"
        {...num('pollIntervalSeconds')}
        hint="The service recommends 15 to 30 s and never more often than every 5 s."
      />
      <TextField
        label="Random spread (± s)"
        type="number"
        min={0}
        step="any"
        {...num('pollJitterSeconds')}
        hint="Keeps many recordings from being asked about at the same moment."
      />
      <TextField
        label="Requests per second, all recordings together"
        type="number"
        min={0.05}
        step="any"
        {...num('requestsPerSecond')}
      />
      <TextField
        label="Uploads at the same time"
        type="number"
        min={1}
        max={8}
        {...num('uploadConcurrency')}
      />
      <TextField
        label="Uploads per minute at most"
        type="number"
        min={1}
        step="any"
        {...num('uploadsPerMinute')}
      />
      {mayChange ? (
        <div className="row">
          <button type="submit" className="primary" disabled={save.pending}>
            Save and apply
          </button>
        </div>
      ) : (
        <p className="muted">The study's owner sets these for the team.</p>
      )}
      {save.value && (
        <Notice tone="ok">
          Saved. Values are kept within the specification (never more often than every 5 seconds).
        </Notice>
      )}
      <ErrorNotice error={save.error} />
    </form>
  );
};

const SCENARIO_TEXT: Record<(typeof SANDBOX_SCENARIOS)[number], string> = {
  default: 'Normal: results after about 20 seconds.',
  fast: 'Fast: results after about a second (demonstrations).',
  flaky:
    'Unreliable: server errors, lost connections and lost answers (train the uncertain-upload decisions).',
  'rate-limited': 'Rate-limited: the service asks to slow down often.',
  'broken-schema': 'Broken answers: some answers do not follow the specification.',
  slow: 'Slow: answers take seconds; analyses take minutes.',
  loose: 'Loose: fast, and answering like a looser real service in every way listed below.',
};

const SandboxForm = () => {
  const state = useCall('sandbox.state', {});
  const set = useAction('sandbox.setScenario');
  const misbehave = useAction('sandbox.setMisbehaviours');
  return (
    <QueryView q={state}>
      {(s) =>
        !s.running ? (
          <p className="muted">The built-in sandbox is not in use.</p>
        ) : (
          <>
            <SelectField
              label="How the sandbox behaves"
              value={s.scenario ?? 'default'}
              onChange={(e) =>
                void set.run({ scenario: e.target.value as (typeof SANDBOX_SCENARIOS)[number] })
              }
              hint="For training and trying out: the real service behaves as it does, not as chosen here."
            >
              {SANDBOX_SCENARIOS.map((n) => (
                <option key={n} value={n}>
                  {SCENARIO_TEXT[n]}
                </option>
              ))}
            </SelectField>
            <fieldset>
              <legend>Answer like a looser real service</legend>
              <p className="hint">
                To rehearse what the workstation does with odd answers: each value stays marked simulated, and
                the odd ones are flagged where you read them.
              </p>
              {SANDBOX_MISBEHAVIOURS.map((m) => (
                <Checkbox
                  key={m}
                  label={MISBEHAVIOUR_TEXT[m]}
                  checked={s.misbehaviours.includes(m)}
                  onChange={(on) =>
                    void misbehave.run({
                      misbehaviours: on ? [...s.misbehaviours, m] : s.misbehaviours.filter((x) => x !== m),
                    })
                  }
                />
              ))}
            </fieldset>
            <p className="muted small">
              Running at {s.url} (this computer only). <SimulatedBadge />
            </p>
            <ErrorNotice error={set.error ?? misbehave.error} />
          </>
        )
      }
    </QueryView>
  );
};

export const SettingsPage = () => {
  const profiles = useCall('profiles.list', {});
  const settings = useCall('settings.get', {});
  const info = useCall('app.info', {});
  const [adding, setAdding] = useState(false);
  const sandbox = useAction('profiles.useSandbox');
  // On a team study only the owner changes profiles, keys and the engine's settings (docs/team.md).
  const mayChange = useMay('profiles');
  return (
    <div className="page">
      <PageHeader title="Settings" />
      <TeamStudySection />
      <Section
        title="Service profiles"
        actions={
          mayChange && (
            <>
              <button type="button" onClick={() => setAdding(!adding)} aria-expanded={adding}>
                Connect a service
              </button>
              <button type="button" onClick={() => void sandbox.run({ apiVersion: 'v1.3' })}>
                Add the sandbox
              </button>
            </>
          )
        }
      >
        {info.data && <p className="muted">{info.data.keyStorage.notice}</p>}
        {adding && (
          <div className="card">
            <ConnectForm onCreated={() => setAdding(false)} />
          </div>
        )}
        <ErrorNotice error={sandbox.error} />
        <QueryView q={profiles}>
          {(list) => (
            <ul className="cards-list">
              {list.map((p) => (
                <ProfileCard key={p.id} p={p} mayChange={mayChange} />
              ))}
            </ul>
          )}
        </QueryView>
      </Section>
      <Section title="Sending and checking for results">
        <QueryView q={settings}>{(s) => <EngineForm s={s} mayChange={mayChange} />}</QueryView>
      </Section>
      <Section title="Built-in sandbox">
        <SandboxForm />
      </Section>
      {info.data && (
        <Section title="About">
          <p className="muted">
            Voicescope {info.data.version} · {info.data.mode === 'browser' ? 'browser mode' : 'desktop app'}{' '}
            on {info.data.platform} · workspace {info.data.workspaceDir}
          </p>
        </Section>
      )}
    </div>
  );
};
