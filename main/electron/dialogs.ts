/**
 * The operating system's file dialogs, for the handlers' `Dialogs` (main/rpc/handlers/deps.ts): only
 * the main process opens them, so the renderer learns a path only when the researcher chose one.
 */
import type { Dialogs } from '../rpc/handlers/deps';

type Purpose = Parameters<Dialogs['pick']>[0];

export interface OpenDialogLike {
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
}
export interface OpenDialogOptions {
  title: string;
  buttonLabel: string;
  properties: ('openFile' | 'openDirectory' | 'multiSelections' | 'createDirectory')[];
  filters?: { name: string; extensions: string[] }[];
}

export const DIALOG_OPTIONS: Record<Purpose, OpenDialogOptions> = {
  audio: {
    title: 'Choose recordings',
    buttonLabel: 'Choose',
    properties: ['openFile', 'multiSelections'],
    filters: [
      { name: 'Audio', extensions: ['wav', 'mp3', 'ogg', 'm4a', 'mp4', 'flac', 'webm'] },
      { name: 'All files', extensions: ['*'] },
    ],
  },
  folder: {
    title: 'Choose a folder of recordings',
    buttonLabel: 'Choose folder',
    properties: ['openDirectory'],
  },
  manifest: {
    title: 'Choose a manifest',
    buttonLabel: 'Choose',
    properties: ['openFile'],
    filters: [{ name: 'CSV', extensions: ['csv', 'txt'] }],
  },
  'export-folder': {
    title: 'Choose where to save',
    buttonLabel: 'Save here',
    properties: ['openDirectory', 'createDirectory'],
  },
};

/** `showOpenDialog` is given the focused window (so the dialog is modal to it) when there is one. */
export const createDialogs = (
  dialog: {
    showOpenDialog(
      window: unknown,
      options: OpenDialogOptions,
    ): Promise<{ canceled: boolean; filePaths: string[] }>;
  },
  focused: () => unknown,
): Dialogs => ({
  async pick(purpose) {
    const r = await dialog.showOpenDialog(focused(), DIALOG_OPTIONS[purpose]);
    return r.canceled ? [] : r.filePaths;
  },
});
