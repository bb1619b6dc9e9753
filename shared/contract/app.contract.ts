/** The application itself: what kind of window this is, where its data lives, how keys are kept. */
import { z } from 'zod';
import { NoInput, procedure } from '../rpc';

export const KeyStorageSchema = z.object({
  /** safe-storage: the operating system's keychain (Electron); key-file: a file only this user can read (browser mode, command line). */
  kind: z.enum(['safe-storage', 'key-file']),
  /** False when keys are kept without the operating system's protection (a plain file, or Linux without a keyring). */
  protectedByOs: z.boolean(),
  /** What the researcher is told about it, in their words. */
  notice: z.string(),
});

export const AppInfoSchema = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  platform: z.string(),
  workspaceDir: z.string(),
  keyStorage: KeyStorageSchema,
  capabilities: z.object({
    /** The operating system's file dialogs (Electron); browser mode uses the built-in file browser. */
    nativeDialogs: z.boolean(),
  }),
  /** No service profile yet: the first-run screen is shown. */
  firstRun: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const appContract = {
  'app.info': procedure(NoInput, AppInfoSchema),
} as const;
