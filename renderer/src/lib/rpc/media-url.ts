/**
 * Where the window plays a recording's audio from (shared/media.ts). The desktop app reads
 * `app://app/media/...` straight from its own scheme. Browser mode asks the bridge for a session
 * ticket (`POST /download-ticket`, the launch token in the Authorization header, never in an address)
 * and plays `/download/media/...?ticket=…`, which the media element reads in byte ranges.
 */
import { DOWNLOAD_PREFIX } from '../../../../shared/media';
import { err, ok, type Result } from '../../../../shared/result';
import { launchToken } from './select-transport';

/** The absolute address to play `path` (`/media/recordings/<id>/<which>`) from, or why there is none. */
export const mediaUrl = async (path: string): Promise<Result<string, string>> => {
  if (window.voicescope) return ok(new URL(path, location.href).href);
  try {
    const res = await fetch('/download-ticket', {
      method: 'POST',
      headers: { Authorization: `Bearer ${launchToken() ?? ''}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: `${DOWNLOAD_PREFIX}${path}` }),
      cache: 'no-store',
    });
    if (!res.ok)
      return err(
        res.status === 403
          ? 'Voicescope refused to play this file: this window no longer holds its access token. Open the address Voicescope printed when it started.'
          : 'Voicescope could not prepare this file for playing. Reload the page to try again.',
      );
    const { url } = (await res.json()) as { url: string };
    return ok(new URL(url, location.href).href);
  } catch {
    return err(
      'Voicescope lost the connection to its background service. Reload the window, or restart Voicescope (npm start).',
    );
  }
};
