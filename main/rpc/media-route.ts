/**
 * Browser mode's audio: `/download/media/recordings/<id>/<original|sent>` (shared/media.ts), reached
 * with a session ticket like a download (never the launch token in the address), streamed from the
 * file on this computer with byte ranges (main/rpc/ranged-file.ts).
 */
import type http from 'node:http';
import { DOWNLOAD_PREFIX, parseMediaPath } from '../../shared/media';
import type { RecordingAudioService } from '../services/recording-audio.service';
import { sendRangedFile } from './ranged-file';

export const MEDIA_DOWNLOAD_PREFIX = `${DOWNLOAD_PREFIX}/media/`;

export const createMediaRoute =
  (audio: Pick<RecordingAudioService, 'recordingAudio'>) =>
  (path: string, req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    if (!path.startsWith(MEDIA_DOWNLOAD_PREFIX)) return false;
    const named = parseMediaPath(path.slice(DOWNLOAD_PREFIX.length));
    if (!named) return false;
    void audio.recordingAudio(named.recordingId, named.which).then(
      (f) => {
        if (!f.ok) res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(f.error);
        else sendRangedFile(req, res, f.value);
      },
      () => {
        if (!res.headersSent) res.writeHead(500).end('Internal error');
        else res.destroy();
      },
    );
    return true;
  };
