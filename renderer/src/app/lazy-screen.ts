/**
 * A feature screen loaded when first shown: the window's bundle is split by screen (esbuild's code
 * splitting), so the first screen parses only the code it needs. `App` shows a loading line in a
 * Suspense boundary while a screen's code arrives; `preloadScreen` starts loading a screen's code
 * early (the first screens, while the first call is on its way).
 */
import { lazy, type ComponentType } from 'react';

const loaders = new WeakMap<ComponentType, () => Promise<unknown>>();

export const lazyScreen = <M>(load: () => Promise<M>, pick: (m: M) => ComponentType): ComponentType => {
  let loading: Promise<M> | undefined;
  const once = () => (loading ??= load());
  const screen = lazy(async () => ({ default: pick(await once()) }));
  loaders.set(screen, once);
  return screen;
};

/** Starts loading a lazy screen's code (no-op for a screen that is not lazy). */
export const preloadScreen = (screen: ComponentType): void => {
  void loaders
    .get(screen)?.()
    .catch(() => undefined);
};
