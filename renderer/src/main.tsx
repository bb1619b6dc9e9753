/** The renderer's entry: pick the transport (Electron preload or browser-mode WebSocket), then render the app. */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createQueryClient, EngineRefresh, RpcProvider } from './lib/api';
import { createRpcClient } from './lib/rpc/client';
import { loadContractChecks } from './lib/rpc/contract-loader';
import { selectTransport } from './lib/rpc/select-transport';
import { applyStoredTheme } from './lib/theme';
import './styles.css';
import 'uplot/dist/uPlot.min.css';

applyStoredTheme();
const root = createRoot(document.getElementById('root')!);
const selected = selectTransport();
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
} else {
  const client = createRpcClient(selected.transport, loadContractChecks);
  const connection = selected.kind === 'browser' ? selected.transport : null;
  root.render(
    <StrictMode>
      <RpcProvider client={client}>
        <QueryClientProvider client={createQueryClient()}>
          <EngineRefresh />
          <App connection={connection} />
        </QueryClientProvider>
      </RpcProvider>
    </StrictMode>,
  );
}
