/**
 * Connecting a real service: address, version, key, and a connection test (ping, then usage) before
 * anything is saved. The key field is a password field; the key goes to the main process once and
 * never comes back.
 */
import { useState } from 'react';
import type { ApiVersion } from '../../../../shared/api/vocabulary';
import type { ProfileView } from '../../../../shared/contract/profiles.contract';
import { Badge } from '../../components/Badges';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Form';
import { useAction, useCall } from '../../lib/api';
import { fmtInt } from '../../lib/format';
import { CLOCK_DIFFERENCE_SHOWN_SECONDS } from '../../../../shared/study';

export const UsageLine = ({
  usage,
}: {
  usage: {
    uploadsRemaining: number;
    detail:
      | {
          kind: 'credits';
          trialRemaining: number;
          includedRemaining: number;
          purchasedRemaining: number;
          tier: string | null;
        }
      | { kind: 'upload_count'; used: number; limit: number };
  };
}) =>
  usage.detail.kind === 'credits' ? (
    <span>
      {fmtInt(usage.uploadsRemaining)} credits left (trial {fmtInt(usage.detail.trialRemaining)}, included{' '}
      {fmtInt(usage.detail.includedRemaining)}, purchased {fmtInt(usage.detail.purchasedRemaining)})
      {usage.detail.tier ? `, tier ${usage.detail.tier}` : ''}
    </span>
  ) : (
    <span>
      {fmtInt(usage.detail.used)} of {fmtInt(usage.detail.limit)} uploads used this billing period (
      {fmtInt(usage.uploadsRemaining)} left)
    </span>
  );

/** The service's clock against this computer's, when they differ by more than a minute (else nothing). */
export const ClockLine = ({ offsetSeconds }: { offsetSeconds: number | null }) =>
  offsetSeconds !== null && Math.abs(offsetSeconds) > CLOCK_DIFFERENCE_SHOWN_SECONDS ? (
    <span>
      The service's clock is {fmtInt(Math.abs(offsetSeconds))} s {offsetSeconds < 0 ? 'behind' : 'ahead of'}{' '}
      this computer's. Its upload times are kept as it gives them; how long Voicescope waits for results is
      counted on this computer's clock.
    </span>
  ) : null;

export const ConnectForm = ({ onCreated }: { onCreated: (p: ProfileView) => void }) => {
  const info = useCall('app.info', {});
  const [name, setName] = useState('Lab service');
  const [baseUrl, setBaseUrl] = useState('https://');
  const [apiVersion, setApiVersion] = useState<ApiVersion>('v1.3');
  const [apiKey, setApiKey] = useState('');
  const test = useAction('profiles.testDraft');
  const create = useAction('profiles.create');
  const [tested, setTested] = useState<{
    ping: string;
    usage: Parameters<typeof UsageLine>[0]['usage'];
    serviceClockOffsetSeconds: number | null;
  } | null>(null);

  const draft = { baseUrl: baseUrl.trim(), apiVersion, apiKey: apiKey.trim() };
  return (
    <form
      className="form"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await create.run({ name, ...draft });
        if (r.ok) onCreated(r.value);
      }}
    >
      <TextField
        label="Profile name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        maxLength={120}
        hint="How this service appears in Voicescope, e.g. “Lab account (v1.3)”."
      />
      <TextField
        label="Service address"
        value={baseUrl}
        onChange={(e) => {
          setBaseUrl(e.target.value);
          setTested(null);
        }}
        required
        type="url"
        hint="The base address your service administrator gave you, without /v1.3."
      />
      <SelectField
        label="API version"
        value={apiVersion}
        onChange={(e) => {
          setApiVersion(e.target.value as ApiVersion);
          setTested(null);
        }}
      >
        <option value="v1.3">v1.3 (current: credits, communication coach, speaker isolation)</option>
        <option value="v1.2">v1.2 (upload count and limit)</option>
      </SelectField>
      <TextField
        label="API key"
        type="password"
        autoComplete="off"
        value={apiKey}
        onChange={(e) => {
          setApiKey(e.target.value);
          setTested(null);
        }}
        required
        minLength={8}
        hint={
          info.data
            ? `Kept in ${info.data.keyStorage.kind === 'safe-storage' ? "the operating system's keychain" : 'a file only your user account can read'}; never shown again, never in exports or logs.`
            : undefined
        }
      />
      {info.data && !info.data.keyStorage.protectedByOs && (
        <Notice tone="warn">{info.data.keyStorage.notice}</Notice>
      )}
      <div className="row">
        <button
          type="button"
          disabled={test.pending || !draft.apiKey || draft.baseUrl.length < 9}
          onClick={async () => {
            setTested(null);
            const r = await test.run(draft);
            if (r.ok) setTested(r.value);
          }}
        >
          {test.pending ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="primary" disabled={create.pending}>
          {create.pending ? 'Saving…' : 'Save profile'}
        </button>
      </div>
      {tested && (
        <Notice tone="ok" title="Connected">
          <p>
            <Badge tone="ok">ping</Badge> {tested.ping}
          </p>
          <p>
            <UsageLine usage={tested.usage} />
          </p>
          {tested.serviceClockOffsetSeconds !== null && (
            <p>
              <ClockLine offsetSeconds={tested.serviceClockOffsetSeconds} />
            </p>
          )}
        </Notice>
      )}
      <ErrorNotice error={test.error} title="The connection test failed" />
      <ErrorNotice error={create.error} title="The profile was not saved" />
    </form>
  );
};
