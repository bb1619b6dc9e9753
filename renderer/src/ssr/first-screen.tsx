/**
 * The window's first screen rendered on the host: browser mode's bridge writes this HTML into
 * the page it serves with the launch token (main/rpc/first-screen-page.ts), so the screen's heading and
 * content are in the page itself, and the window then takes it over (hydration, app/start.tsx) instead
 * of drawing it again.
 *
 * It renders the window's own tree (app/Window.tsx) at Home's destination (set-up on first run, else the
 * studies: routing is by the address's hash, which the host never sees, and Home itself draws nothing but
 * a redirect). Every call the screen makes is answered through `ask` (the host passes its router), by
 * rendering, answering the calls the render left pending, and rendering again until none is left; the
 * answers go into the page with it, so the window's first render has the same data and draws the same
 * HTML. A call that fails, or a render that throws, gives no screen (null): the page is then served
 * without one and the window draws it as it always did.
 *
 * Pure: no Node (node:) and no DOM; React's `prerender` waits for anything that suspends. Text is
 * escaped by React.
 */
import { prerender } from 'react-dom/static';
import type { AppInfo } from '../../../shared/contract/app.contract';
import type { CallResult, Input, Method } from '../../../shared/contract';
import type { FirstScreenAnswer, FirstScreenData } from '../../../shared/first-screen-data';
import { loadScreen } from '../app/lazy-screen';
import { paths } from '../app/paths';
import { featureRoutes } from '../app/routes';
import { Window } from '../app/Window';
import { createQueryClient, seedCall } from '../lib/api';
import type { RpcClient } from '../lib/rpc/client';

/** Answers one call as the window's connection would (the host: its router). */
export type Ask = <M extends Method>(method: M, input: Input<M>) => Promise<CallResult<M>>;

export interface FirstScreen {
  /** The root element's content. */
  readonly html: string;
  /** Which screen it is and every answer it was drawn from, for the page's data block. */
  readonly data: FirstScreenData & { readonly rendered: string };
}

/** Where Home leads (App.tsx): set-up on first run, else the studies. */
export const firstScreenPath = (info: AppInfo): string => (info.firstRun ? paths.setup : paths.studies);

/** Render, answer what is pending, render again: a screen whose calls depend on answers needs a pass per step. */
const MAX_PASSES = 4;

const never = new Promise<never>(() => {});

export const renderFirstScreen = async (ask: Ask): Promise<FirstScreen | null> => {
  const info = await ask('app.info', {});
  if (!info.ok) return null;
  const path = firstScreenPath(info.value);
  const screen = featureRoutes.find(([p]) => p === path)?.[1];
  if (!screen) return null;
  await loadScreen(screen);

  const queries = createQueryClient();
  seedCall(queries, 'app.info', {}, info.value);
  // Effects never run on the host: the client's events and contract checks are never asked for.
  const client: RpcClient = { call: ask, on: () => () => {}, contract: () => never };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const { prelude } = await prerender(
      <Window client={client} queries={queries} connection={null} ssrPath={path} />,
      { onError: () => {} },
    );
    const html = await new Response(prelude).text();
    const all = queries.getQueryCache().getAll();
    const pending = all.filter((q) => q.state.data === undefined);
    if (pending.length === 0) {
      const answers: FirstScreenAnswer[] = all
        .filter((q) => q.queryKey[0] !== 'app.info')
        .map((q) => ({ method: q.queryKey[0] as Method, input: q.queryKey[1], value: q.state.data }));
      return { html, data: { 'app.info': info.value, rendered: path, answers } };
    }
    const answered = await Promise.all(
      pending.map(async (q) => {
        const r = await ask(q.queryKey[0] as Method, q.queryKey[1] as never);
        if (!r.ok) return false;
        queries.setQueryData(q.queryKey, r.value);
        return true;
      }),
    );
    if (answered.includes(false)) return null;
  }
  return null;
};
