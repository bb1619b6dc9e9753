/**
 * Channel names of the Electron transport (STYLE: two channels, one for calls, one for events). Kept
 * apart from shared/rpc.ts, with no imports, so the preload script can use them without bundling zod.
 */
export const IPC_CHANNELS = { rpc: 'app:rpc', event: 'app:event' } as const;
