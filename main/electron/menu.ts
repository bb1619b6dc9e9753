/**
 * The application menu: the standard edit and window roles, DevTools only in development, and a Help
 * menu that opens the logs folder and shows how API keys are kept. No item loads remote content.
 */
export interface MenuItem {
  label?: string;
  role?: string;
  type?: 'separator';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItem[];
}

export interface MenuActions {
  openLogsFolder(): void;
  showKeyStorage(): void;
}

export const menuTemplate = (o: {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  actions: MenuActions;
}): MenuItem[] => [
  ...(o.platform === 'darwin' ? [{ role: 'appMenu' }] : [{ label: '&File', submenu: [{ role: 'quit' }] }]),
  { role: 'editMenu' },
  {
    label: '&View',
    submenu: [
      { role: 'reload' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(o.isPackaged ? [] : [{ type: 'separator' as const }, { role: 'toggleDevTools' }]),
    ],
  },
  { role: 'windowMenu' },
  {
    label: '&Help',
    submenu: [
      { label: 'Open the logs folder', click: o.actions.openLogsFolder },
      { label: 'How API keys are kept…', click: o.actions.showKeyStorage },
    ],
  },
];
