/**
 * The desktop app's entry (bundled to out/main/main.cjs). A thin shell: it applies the security rules
 * (security.ts), serves the renderer on app:// (protocol.ts), opens the key vault (key-vault.ts), opens
 * the same app host as browser mode with the Electron transport in front (ipc.ts), and opens the
 * window (windows.ts). Everything it wires is unit-tested with a stand-in for `electron`.
 *
 * Crash reports: `crashReporter` is deliberately never started. A minidump holds process memory (API
 * keys, participant codes), and nothing may be uploaded; a test keeps it that way.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { askedDatabase } from '../services/open-study-service';
import { openAppHost, type AppHost } from '../app-host';
import { appendAuditAlone } from '../db/repos/audit.repo';
import { createLogger, logsDirOf, routeConsole } from '../log';
import { defaultWorkspaceDir, keysDirOf } from '../workspace/workspace';
import { createDialogs } from './dialogs';
import { wireIpc } from './ipc';
import { detectKeyStorage, fileConsent, keyStorageInfo, openSafeStorageVault } from './key-vault';
import { menuTemplate } from './menu';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, serveApp } from './protocol';
import { hardenContents, hardenSession } from './security';
import { openMainWindow } from './windows';

// Before `ready`: every renderer sandboxed, and the app:// scheme registered as standard and secure.
app.enableSandbox();
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

const OUT = join(__dirname, '..');

const WEAK_STORAGE_QUESTION = {
  type: 'warning' as const,
  title: 'No keyring on this computer',
  message: 'Voicescope cannot protect this API key with a keyring.',
  detail:
    'Linux keeps passwords in a keyring (GNOME Keyring or KWallet), and none is available in this session. Without one, the key would only be hidden with a password built into Chromium, which anyone who can read your files could undo.\n\nTo protect the key, install and unlock a keyring, restart Voicescope and enter the key again.\n\nSave the key anyway, with this weaker protection? Voicescope remembers your answer.',
  buttons: ['Do not save the key', 'Save with weaker protection'],
  defaultId: 0,
  cancelId: 0,
  noLink: true,
};

const start = async () => {
  await app.whenReady();
  const workspaceDir = defaultWorkspaceDir();
  const logger = createLogger({ dir: logsDirOf(workspaceDir), console: !app.isPackaged });
  routeConsole(logger);
  process.on('uncaughtException', (e) => logger.error('uncaught exception', e));
  process.on('unhandledRejection', (e) => logger.error('unhandled rejection', e));

  app.on('web-contents-created', (_event, contents) => hardenContents(contents, shell, logger));
  hardenSession(session.defaultSession, logger);
  let host: AppHost | null = null;
  // Recordings' audio is served from their files once the services are open (the player waits for them).
  protocol.handle(APP_SCHEME, (request) =>
    serveApp(join(OUT, 'renderer'), request, (id, which) =>
      host
        ? host.service.recordingAudio(id, which)
        : Promise.resolve({ ok: false as const, error: 'Voicescope is still starting.' }),
    ),
  );
  const consent = fileConsent(join(app.getPath('userData'), 'key-storage.json'));
  const status = await detectKeyStorage(safeStorage, process.platform, consent);
  if (status.kind !== 'os')
    logger.warn(
      `key storage: ${status.kind === 'weak' ? `no keyring (${status.backend}), ${status.accepted ? 'weak storage accepted' : 'keys are not saved unless the researcher accepts'}` : 'unavailable'}`,
    );
  const vault = await openSafeStorageVault({
    safeStorage,
    dir: keysDirOf(workspaceDir),
    status,
    consent,
    log: logger,
    askToAcceptWeak: () => {
      const win = BrowserWindow.getFocusedWindow();
      return (
        (win
          ? dialog.showMessageBoxSync(win, WEAK_STORAGE_QUESTION)
          : dialog.showMessageBoxSync(WEAK_STORAGE_QUESTION)) === 1
      );
    },
    onAccepted: (at) => {
      // The key vault asks synchronously; the entry is written on the store's next turn, a failure logged.
      if (host)
        void appendAuditAlone(host.service.store, {
          at,
          kind: 'key_storage_accepted',
          detail: { backend: status.kind === 'weak' ? status.backend : null },
        }).catch((e: unknown) => logger.error('the accepted key storage could not be audited', e));
    },
  });

  const hosted = await openAppHost({
    workspaceDir,
    database: askedDatabase(undefined, process.env),
    mode: 'electron',
    keyStorage: keyStorageInfo(status),
    vault,
    logger,
    dialogs: createDialogs(
      {
        showOpenDialog: (win, options) =>
          win instanceof BrowserWindow ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options),
      },
      () => BrowserWindow.getFocusedWindow(),
    ),
  });
  if (!hosted.ok) {
    logger.error(`the study database cannot be opened: ${hosted.error}`);
    dialog.showErrorBox('Voicescope cannot open the study database', hosted.error);
    app.quit();
    return;
  }
  const opened = hosted.value;
  host = opened;
  const unwire = wireIpc({
    ipcMain,
    router: opened.router,
    bus: opened.bus,
    targets: () => BrowserWindow.getAllWindows().map((w) => w.webContents),
    log: logger,
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        isPackaged: app.isPackaged,
        platform: process.platform,
        actions: {
          openLogsFolder: () => void shell.openPath(logsDirOf(workspaceDir)),
          showKeyStorage: () =>
            void dialog.showMessageBox({
              type: 'info',
              title: 'How API keys are kept',
              message: 'API keys',
              detail: keyStorageInfo(vault.status()).notice,
            }),
        },
      }) as Electron.MenuItemConstructorOptions[],
    ),
  );

  const open = () =>
    openMainWindow(
      { create: (options) => new BrowserWindow(options) },
      { preload: join(OUT, 'preload', 'preload.cjs'), isPackaged: app.isPackaged },
    );
  let main = open();
  app.on('second-instance', () => {
    if (main.isMinimized()) main.restore();
    main.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) main = open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void (async () => {
      try {
        await vault.flush();
        unwire();
        await opened.close();
      } catch (e) {
        logger.error('shutdown failed', e);
      }
      closed = true;
      app.quit();
    })();
  });
  logger.info('desktop app started');
};

// One instance per user: a second launch focuses the first (two would share one study database).
if (!app.requestSingleInstanceLock()) app.quit();
else
  void start().catch((e: unknown) => {
    console.error('voicescope: could not start', e);
    dialog.showErrorBox('Voicescope could not start', e instanceof Error ? e.message : String(e));
    app.exit(1);
  });
