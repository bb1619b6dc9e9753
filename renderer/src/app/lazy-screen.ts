/**
 * A feature screen loaded when first shown: the window's bundle is split by screen (esbuild's code
 * splitting), so the first screen parses only the code it needs. `App` shows a loading line in a
 * Suspense boundary while a screen's code arrives; `preloadScreen` starts loading a screen's code
 * early (the first screens, as the window's scripts start); once a screen is drawn, the others' code is
 * fetched in idle time (`warmScreensWhenIdle`).
 *
 * A screen whose code has already arrived is drawn at once, not through React.lazy: lazy suspends on
 * its first render even when its module is in hand, and React then holds the Suspense fallback for a
 * further 300 ms or so before revealing the screen (its throttling of fallbacks), which on the first
 * screen was a third of the time to the first heading.
 */
import { createElement, lazy, useEffect, useState, type ComponentType } from 'react';

const loaders = new WeakMap<ComponentType, () => Promise<unknown>>();
/** Every lazy screen's loader, in the order the routes list them. */
const every: (() => Promise<unknown>)[] = [];

/**
 * Once the first screen has drawn and the window is idle, the other screens' code is fetched, one chunk
 * after another in idle time, so that opening a screen later does not wait for its code (a participant
 * page's chunk took ~270 ms to arrive when asked for). The first screen's own loading is untouched: this
 * starts only after a screen has mounted, and after a frame and an idle period.
 */
let warming = false;
const idle = (f: () => void) =>
  typeof window.requestIdleCallback === 'function'
    ? window.requestIdleCallback(f, { timeout: 2000 })
    : window.setTimeout(f, 200);
export const warmScreensWhenIdle = (): void => {
  if (warming || typeof window === 'undefined') return;
  warming = true;
  const next = (i: number) => {
    if (i >= every.length) return;
    idle(() => {
      void every[i]!()
        .catch(() => undefined)
        .finally(() => next(i + 1));
    });
  };
  requestAnimationFrame(() => setTimeout(() => next(0), 0));
};

export const lazyScreen = <M>(load: () => Promise<M>, pick: (m: M) => ComponentType): ComponentType => {
  let loading: Promise<M> | undefined;
  let loaded: ComponentType | undefined;
  const once = () =>
    (loading ??= load().then((m) => {
      loaded = pick(m);
      return m;
    }));
  const Lazy = lazy(async () => ({ default: pick(await once()) }));
  // Chosen once per mounted screen: switching a mounted screen from Lazy to its module's component
  // would be a different element type, and React would remount it (losing its state).
  const Screen: ComponentType = (props: object) => {
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    useEffect(warmScreensWhenIdle, []);
    return createElement(Component, props);
  };
  loaders.set(Screen, once);
  every.push(once);
  return Screen;
};

/**
 * A lazy screen's code, loaded: once this resolves the screen draws at once, without suspending (what
 * rendering the first screen on the host and taking it over in the window need, ssr/first-screen.tsx
 * and app/start.tsx). Resolves at once for a screen that is not lazy.
 */
export const loadScreen = async (screen: ComponentType): Promise<void> => {
  await loaders.get(screen)?.();
};

/** Starts loading a lazy screen's code (no-op for a screen that is not lazy). */
export const preloadScreen = (screen: ComponentType): void => {
  void loaders
    .get(screen)?.()
    .catch(() => undefined);
};
