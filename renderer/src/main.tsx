/**
 * The renderer's entry: pick the transport (Electron preload or browser-mode WebSocket) first, so the
 * WebSocket's handshake runs while the rest of the window's code starts (React and the app:
 * app/start.tsx, fetched beside this script, see scripts/build.mjs), then render the app.
 *
 * When the host rendered the first screen into the page (browser mode, ssr/first-screen.tsx), what the
 * researcher does to it from now until React has taken it over is held and replayed
 * (lib/early-input.ts); a rendered screen the address does not lead to is cleared at once.
 */
import { holdEarlyInput } from './lib/early-input';
import { renderedScreenToTakeOver } from './lib/rpc/first-screen-data';
import { selectTransport } from './lib/rpc/select-transport';
import { applyStoredTheme } from './lib/theme';
import './styles.css';
import 'uplot/dist/uPlot.min.css';

applyStoredTheme();
const root = document.getElementById('root')!;
const early = renderedScreenToTakeOver(root) === null ? null : holdEarlyInput(root);
const selected = selectTransport();
import('./app/start').then(
  (m) => m.start(selected, early),
  () => {
    early?.release();
    root.textContent = 'Voicescope could not load its window. Reload the page.';
  },
);
