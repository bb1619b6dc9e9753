/**
 * A recording's audio as the window plays it: which file (the original, or the converted copy that was
 * sent) and the one address form both hosts answer. The Electron shell serves `app://app/media/...`
 * (main/electron/protocol.ts); browser mode serves `/download/media/...` with a session ticket
 * (main/rpc/ws-bridge.ts). Nothing leaves the computer either way.
 */

export const MEDIA_SOURCES = ['original', 'sent'] as const;
export type MediaSource = (typeof MEDIA_SOURCES)[number];

/** The address of one recording's audio, without host: `/media/recordings/<id>/<which>`. */
export const mediaPath = (recordingId: number, which: MediaSource): string =>
  `/media/recordings/${recordingId}/${which}`;

/** Browser mode puts every ticketed address under this prefix. */
export const DOWNLOAD_PREFIX = '/download';

/** The recording and source an address names, or null when it names none. */
export const parseMediaPath = (path: string): { recordingId: number; which: MediaSource } | null => {
  const m = /^\/media\/recordings\/([1-9][0-9]{0,14})\/(original|sent)$/.exec(path);
  return m ? { recordingId: Number(m[1]), which: m[2] as MediaSource } : null;
};

/**
 * The content type a file's extension is played as. Only the formats the import accepts; anything
 * else is not served.
 */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.wav': 'audio/wav',
  '.wave': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.mp4': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
};

/** The waveform's height in CSS pixels (its style element's hash in the CSP depends on it). */
export const WAVEFORM_HEIGHT_PX = 128;
