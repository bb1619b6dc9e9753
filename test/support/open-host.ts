import { openAppHost, type AppHost, type AppHostOptions } from '../../main/app-host';

/** The app host for a test, which fails with the host's own words when its study database cannot be opened. */
export const openHost = async (o: AppHostOptions): Promise<AppHost> => {
  const opened = await openAppHost(o);
  if (!opened.ok) throw new Error(`the study database cannot be opened: ${opened.error}`);
  return opened.value;
};
