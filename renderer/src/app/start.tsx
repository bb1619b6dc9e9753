/**
 * The window itself, started by the entry (renderer/src/main.tsx) once it has begun connecting: React,
 * the query cache, the contract client over the chosen transport, and the app.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient, EngineRefresh, prefetchCall, RpcProvider, seedCall } from '../lib/api';
import { createRpcClient } from '../lib/rpc/client';
import { loadContractChecks } from '../lib/rpc/contract-loader';
import { takeFirstScreenData } from '../lib/rpc/first-screen-data';
import type { SelectedTransport } from '../lib/rpc/select-transport';
import { App } from './App';

export const start = (selected: SelectedTransport) => {
  const root = createRoot(document.getElementById('root')!);
  if (selected.kind === 'none') {
    root.render(
      <main className="standalone">
        <h1>Voicescope cannot connect</h1>
        <p>
          {selected.reason} Open the address that <code>npm start</code> printed in the terminal (it ends with{' '}
          <code>?token=…</code>).
        </p>
      </main>,
    );
    return;
  }
  const client = createRpcClient(selected.transport, loadContractChecks);
  const connection = selected.kind === 'browser' ? selected.transport : null;
  const queries = createQueryClient();
  // The first screen's one call (Home and the sidebar: first run or not, the version): answered in the
  // page by browser mode's bridge, else on its way while React draws the window's frame.
  const seeded = selected.kind === 'browser' ? takeFirstScreenData() : null;
  if (seeded) seedCall(queries, 'app.info', {}, seeded['app.info']);
  else prefetchCall(queries, client, 'app.info', {});
  root.render(
    <StrictMode>
      <RpcProvider client={client}>
        <QueryClientProvider client={queries}>
          <EngineRefresh />
          <App connection={connection} />
        </QueryClientProvider>
      </RpcProvider>
    </StrictMode>,
  );
};
