/**
 * Browser mode's downloads: the launch token never goes into an address (it would stay in the
 * browser's history). The window asks the bridge for a one-time ticket for one file
 * (`POST /download-ticket`, token in the Authorization header), then lets the browser fetch
 * `<path>?ticket=…`, which works once and for a minute (main/rpc/ws-bridge.ts).
 */
import { launchToken } from './select-transport';

/** Why a download could not start, in the researcher's words; null when it started. */
export type DownloadProblem = string | null;

/** Starts the browser's download of `path` (e.g. `/download/exports/<folder>.zip`). */
export const downloadWithTicket = async (path: string): Promise<DownloadProblem> => {
  let url: string;
  try {
    const res = await fetch('/download-ticket', {
      method: 'POST',
      headers: { Authorization: `Bearer ${launchToken() ?? ''}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path }),
      cache: 'no-store',
    });
    if (!res.ok)
      return res.status === 403
        ? 'Voicescope refused the download: this window no longer holds its access token. Open the address Voicescope printed when it started.'
        : 'Voicescope could not prepare the download. Try again; if it keeps failing, open the export folder instead.';
    ({ url } = (await res.json()) as { url: string });
  } catch {
    return 'Voicescope lost the connection to its background service. Reload the window, or restart Voicescope (npm start).';
  }
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  return null;
};
