/**
 * The renderer's entry: pick the transport (Electron preload or browser-mode WebSocket) first, so the
 * WebSocket's handshake runs while the rest of the window's code starts (React and the app:
 * app/start.tsx, fetched beside this script, see scripts/build.mjs), then render the app.
 */
import { selectTransport } from './lib/rpc/select-transport';
import { applyStoredTheme } from './lib/theme';
import './styles.css';
import 'uplot/dist/uPlot.min.css';

applyStoredTheme();
const selected = selectTransport();
import('./app/start').then(
  (m) => m.start(selected),
  () => {
    document.getElementById('root')!.textContent = 'Voicescope could not load its window. Reload the page.';
  },
);
