/**
 * The main window. Its web preferences are the security defaults of the Electron guide, spelled out
 * (even where they are Electron's defaults) so a test can pin them: context isolation, the renderer
 * sandbox, no Node in the page or its workers or frames, no <webview>, DevTools only in development.
 * `webSecurity`, `allowRunningInsecureContent` and `experimentalFeatures` are never touched.
 */
import { APP_ENTRY } from './protocol';

export const webPreferencesFor = (o: { preload: string; isPackaged: boolean }) =>
  ({
    preload: o.preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
    devTools: !o.isPackaged,
  }) as const;

export interface WindowFactory<W> {
  create(options: {
    width: number;
    height: number;
    minWidth: number;
    minHeight: number;
    show: boolean;
    title: string;
    backgroundColor: string;
    webPreferences: ReturnType<typeof webPreferencesFor>;
  }): W;
}

export interface WindowLike {
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  loadURL(url: string): Promise<void>;
}

export const openMainWindow = <W extends WindowLike>(
  factory: WindowFactory<W>,
  o: { preload: string; isPackaged: boolean },
): W => {
  const win = factory.create({
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Voicescope',
    backgroundColor: '#ffffff',
    webPreferences: webPreferencesFor(o),
  });
  // Shown once painted, so the researcher never sees an empty white frame.
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY);
  return win;
};
