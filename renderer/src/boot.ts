/**
 * The rendered page's only script (browser mode, issue 16): it starts the window's code (app.js, the
 * entry: renderer/src/main.tsx) once the first screen the host rendered into the page has had its first
 * frame, so that the entry's fetch, compile and run do not compete with that frame on the CPU (on a
 * two-core machine the page's style, layout and raster and the entry's scripts shared the cores).
 *
 * `requestAnimationFrame` runs just before the first frame's paint; the task it queues runs after it.
 * A page that is not visible gets no frames: there the entry starts at once. Built as a classic script
 * (scripts/build.mjs) and linked by main/rpc/first-screen-page.ts, which needs no inline script (the
 * CSP allows none).
 */
const ENTRY = 'app.js';

const startEntry = () => {
  if (document.querySelector(`script[src="${ENTRY}"]`)) return;
  const entry = document.createElement('script');
  entry.type = 'module';
  entry.src = ENTRY;
  document.body.append(entry);
};

if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(startEntry, 0));
else startEntry();
