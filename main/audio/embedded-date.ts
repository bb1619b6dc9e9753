/**
 * The recording date a file carries itself: the Broadcast WAV `bext` origination date and time that
 * field recorders write, or the creation date of RIFF INFO (ICRD), ID3 or MP4 tags, read with
 * music-metadata. Returned as a wall-clock time (recorders store local time without a zone) for the
 * caller to place in the study's time zone.
 */
import { parseBuffer } from 'music-metadata';
import type { WallTime } from '../wall-time';

const MIME = { wav: 'audio/wav', mp3: 'audio/mpeg', mp4: 'audio/mp4', ogg: 'audio/ogg' } as const;
const DATE = /^(\d{4})[-:/](\d{2})[-:/](\d{2})(?:[T ](\d{2})[:.-](\d{2})(?:[:.-](\d{2}))?)?/;

export interface EmbeddedDate {
  readonly wall: WallTime;
  readonly hasTime: boolean;
  readonly from: 'bext' | 'tag';
}

const parse = (text: string, from: EmbeddedDate['from']): EmbeddedDate | null => {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const wall = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
  if (wall.year < 1990 || wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > 31) return null;
  return { wall, hasTime: m[4] !== undefined, from };
};

export const readEmbeddedDate = async (
  bytes: Uint8Array,
  format: keyof typeof MIME,
): Promise<EmbeddedDate | null> => {
  try {
    const meta = await parseBuffer(
      bytes,
      { mimeType: MIME[format], size: bytes.byteLength },
      { duration: false, skipCovers: true },
    );
    const exif = meta.native['exif'] ?? [];
    const date = exif.find((t) => t.id === 'bext.originationDate')?.value;
    const time = exif.find((t) => t.id === 'bext.originationTime')?.value;
    if (typeof date === 'string' && date.trim() !== '') {
      const d = parse(
        typeof time === 'string' && time.trim() !== '' ? `${date.trim()} ${time.trim()}` : date,
        'bext',
      );
      if (d) return d;
    }
    return meta.common.date ? parse(meta.common.date, 'tag') : null;
  } catch {
    return null; // damaged or unusual metadata: fall back to the file's modification time
  }
};
