/**
 * A feature screen loaded when first shown: the window's bundle is split by screen (esbuild's code
 * splitting), so the first screen parses only the code it needs. `App` shows a loading line in a
 * Suspense boundary while a screen's code arrives; `preloadScreen` starts loading a screen's code
 * early (the first screens, as the window's scripts start).
 *
 * A screen whose code has already arrived is drawn at once, not through React.lazy: lazy suspends on
 * its first render even when its module is in hand, and React then holds the Suspense fallback for a
 * further 300 ms or so before revealing the screen (its throttling of fallbacks), which on the first
 * screen was a third of the time to the first heading.
 */
import { createElement, lazy, useState, type ComponentType } from 'react';

const loaders = new WeakMap<ComponentType, () => Promise<unknown>>();

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
    return createElement(Component, props);
  };
  loaders.set(Screen, once);
  return Screen;
};

/** Starts loading a lazy screen's code (no-op for a screen that is not lazy). */
export const preloadScreen = (screen: ComponentType): void => {
  void loaders
    .get(screen)?.()
    .catch(() => undefined);
};
