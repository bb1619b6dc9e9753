/** Electron: the contract over the preload bridge (`window.voicescope`), which only forwards to ipcRenderer. */
import type { PreloadApi, Transport } from '../../../../shared/rpc';

export const createElectronTransport = (api: PreloadApi): Transport => ({
  request: (method, input) => api.invoke(method, input),
  subscribe: (listener) => api.on(listener),
});
