/**
 * Connect to a team study: the database's address (without the password), the member's login and
 * password. The check is the host's (server reached, password right, a team database, a login that
 * may work there, the schema this version needs); only then is the password kept in the key store, and
 * the window works on the team study. The password field is emptied whatever the answer.
 */
import { useState } from 'react';
import { useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { useAction, useCall } from '../../lib/api';

export const TeamConnectForm = () => {
  const [address, setAddress] = useState('');
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const use = useAction('team.useDatabase');
  const info = useCall('app.info', {});
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  return (
    <form
      className="form"
      aria-label="Connect to a team study"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await use.run({ address, login, password });
        setPassword('');
        if (!r.ok) return;
        // Everything shown so far was read from the other database.
        await qc.resetQueries();
        navigate('/');
      }}
    >
      <TextField
        label="Team study database"
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        required
        maxLength={2048}
        placeholder="postgres://server:5432/study?sslmode=verify-full&sslrootcert=/path/to/ca.crt"
        hint="The address your team administrator gave you, without a password."
      />
      <TextField
        label="Your login"
        value={login}
        onChange={(e) => setLogin(e.target.value)}
        required
        maxLength={63}
        autoComplete="username"
      />
      <TextField
        label="Your password"
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
        autoComplete="current-password"
        hint={
          info.data
            ? `Kept in ${info.data.keyStorage.kind === 'safe-storage' ? "the operating system's keychain" : 'a file only your user account can read'} once the server accepts it; never shown again, never in an address or a log.`
            : undefined
        }
      />
      <div className="row">
        <button type="submit" className="primary" disabled={use.pending}>
          {use.pending ? 'Checking…' : 'Connect'}
        </button>
      </div>
      <ErrorNotice error={use.error} title="Not connected" />
    </form>
  );
};
