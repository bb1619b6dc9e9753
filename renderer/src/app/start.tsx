/**
 * The window itself, started by the entry (renderer/src/main.tsx) once it has begun connecting: React,
 * the query cache, the contract client over the chosen transport, and the app.
 *
 * When the page holds the first screen rendered by the host (ssr/first-screen.tsx) and the address
 * still leads to it, React takes that HTML over (hydration) with the answers it was rendered from, so
 * the window's first render is the page's; what the researcher did to it meanwhile is then replayed
 * (lib/early-input.ts). Otherwise React draws the window, as it does in the Electron window.
 */
import { createRoot, hydrateRoot } from 'react-dom/client';
import { FIRST_SCREEN_ATTRIBUTE } from '../../../shared/first-screen-data';
import { createQueryClient, prefetchCall, seedCall } from '../lib/api';
import type { EarlyInput } from '../lib/early-input';
import { createRpcClient } from '../lib/rpc/client';
import { loadContractChecks } from '../lib/rpc/contract-loader';
import { hashLeadsTo, takeFirstScreenData } from '../lib/rpc/first-screen-data';
import type { SelectedTransport } from '../lib/rpc/select-transport';
import { loadScreen } from './lazy-screen';
import { featureRoutes } from './routes';
import { Window } from './Window';

export const start = async (selected: SelectedTransport, early: EarlyInput | null) => {
  const container = document.getElementById('root')!;
  if (selected.kind === 'none') {
    early?.release();
    container.replaceChildren();
    createRoot(container).render(
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
  // The first screen's calls (Home and the sidebar: first run or not, the version; the screen's own):
  // answered in the page by browser mode's bridge, else `app.info` is on its way while React draws the
  // window's frame.
  const seeded = selected.kind === 'browser' ? takeFirstScreenData() : null;
  if (seeded) {
    seedCall(queries, 'app.info', {}, seeded['app.info']);
    for (const a of seeded.answers ?? []) queries.setQueryData([a.method, a.input], a.value);
  } else prefetchCall(queries, client, 'app.info', {});

  const screen = seeded?.rendered;
  if (early && screen !== undefined && container.getAttribute(FIRST_SCREEN_ATTRIBUTE) === screen) {
    // The screen's code: asked for now (a page with the screen in it does not announce the scripts,
    // main/rpc/first-screen-page.ts, so that its first paint does not wait for them).
    const route = featureRoutes.find(([p]) => p === screen);
    if (route) await loadScreen(route[1]).catch(() => undefined);
    // A link followed meanwhile (the address's hash) leads elsewhere: that screen is drawn instead.
    if (hashLeadsTo(location.hash, screen)) {
      // Home's destination, as its redirect would have put it (App.tsx), without a hashchange.
      if (location.hash !== `#${screen}`) history.replaceState(history.state, '', `#${screen}`);
      hydrateRoot(
        container,
        <Window
          client={client}
          queries={queries}
          connection={connection}
          ssrPath={screen}
          onMount={early.replay}
        />,
        {
          // React redraws a part that does not match the page; said in the console, never thrown.
          onRecoverableError: (e) => console.error('voicescope: the first screen was redrawn', e),
        },
      );
      return;
    }
  }
  early?.release();
  container.removeAttribute(FIRST_SCREEN_ATTRIBUTE);
  container.replaceChildren();
  createRoot(container).render(<Window client={client} queries={queries} connection={connection} />);
};
