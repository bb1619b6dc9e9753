/**
 * The whole window as React draws it: the contract client and the query cache in context, the engine's
 * refreshes and the app. One tree for the three ways it is drawn, so they agree to the element (and to
 * every `useId`): drawn in the window (app/start.tsx), taken over from the page the host rendered
 * (hydration, same file), and rendered on the host into that page (ssr/first-screen.tsx).
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { EngineRefresh, RpcProvider } from '../lib/api';
import type { RpcClient } from '../lib/rpc/client';
import type { WsTransport } from '../lib/rpc/ws-transport';
import { App } from './App';

export interface WindowProps {
  readonly client: RpcClient;
  readonly queries: QueryClient;
  readonly connection: WsTransport | null;
  /** The screen the host rendered into the page (the location while React takes it over), if any. */
  readonly ssrPath?: string | undefined;
  /** Called once the screen is drawn, for a page taken over once React has it (App.tsx). */
  readonly onMount?: (() => void) | undefined;
}

export const Window = ({ client, queries, connection, ssrPath, onMount }: WindowProps) => (
  <StrictMode>
    <RpcProvider client={client}>
      <QueryClientProvider client={queries}>
        <EngineRefresh />
        <App connection={connection} ssrPath={ssrPath} onMount={onMount} />
      </QueryClientProvider>
    </RpcProvider>
  </StrictMode>
);
