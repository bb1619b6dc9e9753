/**
 * A stand-in for the `electron` module (no Electron binary exists on our machines): the parts the
 * shell and the preload use, recording what they are asked to do, so tests can drive IPC, navigation,
 * permissions and quitting as Electron would. Used with `vi.mock('electron', ...)`.
 */
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => unknown;

export class FakeWebContents extends EventEmitter {
  url = '';
  destroyed = false;
  sent: { channel: string; message: unknown }[] = [];
  windowOpenHandler: ((d: { url: string }) => { action: string }) | null = null;
  isDestroyed() {
    return this.destroyed;
  }
  getURL() {
    return this.url;
  }
  send(channel: string, message: unknown) {
    this.sent.push({ channel, message });
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.windowOpenHandler = h;
  }
}

export const createElectronStandIn = (o: {
  backend?: string;
  platform?: string;
  userData: string;
  messageBoxAnswer?: () => number;
}) => {
  const calls: string[] = [];
  const appEvents = new EventEmitter();
  let readyResolve: () => void = () => {};
  const ready = new Promise<void>((r) => {
    readyResolve = r;
  });
  const windows: FakeWindow[] = [];
  const handlers = new Map<string, Listener>();
  const sessionEvents = new EventEmitter();
  const session = {
    permissionRequest: null as null | ((wc: unknown, p: string, cb: (g: boolean) => void) => void),
    permissionCheck: null as null | ((wc: unknown, p: string) => boolean),
    deviceCheck: null as null | (() => boolean),
    beforeRequest: null as null | ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void),
    setPermissionRequestHandler(h: never) {
      this.permissionRequest = h;
    },
    setPermissionCheckHandler(h: never) {
      this.permissionCheck = h;
    },
    setDevicePermissionHandler(h: never) {
      this.deviceCheck = h;
    },
    on: (e: string, l: Listener) => sessionEvents.on(e, l),
    emit: (e: string, ...a: unknown[]) => sessionEvents.emit(e, ...a),
    webRequest: {
      onBeforeRequest: (_f: unknown, l: never) => {
        session.beforeRequest = l;
      },
    },
  };

  class FakeWindow extends EventEmitter {
    webContents = new FakeWebContents();
    shown = false;
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      super();
      windows.push(this);
      calls.push('new BrowserWindow');
      appEvents.emit('web-contents-created', {}, this.webContents);
    }
    static getAllWindows() {
      return windows.filter((w) => !w.webContents.destroyed);
    }
    static getFocusedWindow() {
      return windows[0] ?? null;
    }
    loadURL(url: string) {
      this.webContents.url = url;
      calls.push(`loadURL ${url}`);
      return Promise.resolve();
    }
    show() {
      this.shown = true;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
  }

  const encrypt = (s: string) =>
    Buffer.concat([Buffer.from('ENC1:'), Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)]);
  const electron = {
    app: {
      isPackaged: false,
      enableSandbox: () => {
        calls.push('enableSandbox');
      },
      whenReady: () => ready,
      requestSingleInstanceLock: () => true,
      getPath: (name: string) => {
        if (name !== 'userData') throw new Error(name);
        return o.userData;
      },
      on: (e: string, l: Listener) => {
        appEvents.on(e, l);
        return electron.app;
      },
      quit: () => {
        calls.push('quit');
        appEvents.emit('before-quit', { preventDefault: () => calls.push('quit deferred') });
      },
      exit: (code: number) => {
        calls.push(`exit ${code}`);
      },
    },
    BrowserWindow: FakeWindow,
    protocol: {
      registerSchemesAsPrivileged: (s: unknown) => {
        calls.push(`registerSchemesAsPrivileged ${JSON.stringify(s)}`);
      },
      handlers: new Map<string, (r: Request) => Promise<Response>>(),
      handle(scheme: string, h: (r: Request) => Promise<Response>) {
        this.handlers.set(scheme, h);
        calls.push(`protocol.handle ${scheme}`);
      },
    },
    session: { defaultSession: session },
    ipcMain: {
      handle: (channel: string, l: Listener) => {
        handlers.set(channel, l);
      },
      removeHandler: (channel: string) => {
        handlers.delete(channel);
      },
      on: (channel: string) => {
        throw new Error(`the shell must not listen with ipcMain.on (${channel})`);
      },
    },
    safeStorage: {
      getSelectedStorageBackend: () => o.backend ?? 'gnome_libsecret',
      isAsyncEncryptionAvailable: async () => true,
      encryptStringAsync: async (s: string) => encrypt(s),
      decryptStringAsync: async (b: Buffer) => {
        if (b.subarray(0, 5).toString() !== 'ENC1:') throw new Error('cannot decrypt');
        return {
          result: Buffer.from(b.subarray(5).map((x) => x ^ 0x5a)).toString('utf8'),
          shouldReEncrypt: false,
        };
      },
      encryptString: () => {
        throw new Error('the synchronous safeStorage API is deprecated');
      },
      decryptString: () => {
        throw new Error('the synchronous safeStorage API is deprecated');
      },
    },
    dialog: {
      asked: 0,
      showMessageBoxSync(..._a: unknown[]) {
        this.asked++;
        return o.messageBoxAnswer?.() ?? 0;
      },
      showMessageBox: async () => ({ response: 0 }),
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showErrorBox: (t: string, m: string) => {
        calls.push(`error box ${t}: ${m}`);
      },
    },
    shell: {
      opened: [] as string[],
      openExternal(url: string) {
        this.opened.push(url);
        return Promise.resolve();
      },
      openPath: async () => '',
    },
    Menu: {
      buildFromTemplate: (t: unknown) => t,
      setApplicationMenu: (m: unknown) => {
        calls.push('setApplicationMenu');
        void m;
      },
    },
    crashReporter: {
      start: () => {
        calls.push('crashReporter.start');
      },
    },
  };
  return {
    electron,
    calls,
    windows,
    session,
    handlers,
    ready: () => readyResolve(),
    /** Calls the rpc handler as a renderer frame at `url` would (top frame unless `parent` is given). */
    invoke: async (channel: string, url: string, message: unknown, parent: unknown = null) => {
      const h = handlers.get(channel);
      if (!h) throw new Error(`No handler registered for '${channel}'`);
      return h({ senderFrame: { url, parent } }, message);
    },
    appEvents,
  };
};

export type ElectronStandIn = ReturnType<typeof createElectronStandIn>;
